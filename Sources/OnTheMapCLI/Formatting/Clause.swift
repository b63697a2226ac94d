import OnTheMapModels

/// A message written as sentences ("Cannot reach the OnTheMap API at …: the connection was refused.
/// Check the network and the API URL, then retry.") quoted inside another sentence ("stale: cannot
/// reach …; refreshed 2 min ago"): its first sentence, without the full stop, begun in lower case
/// unless its first word is an abbreviation in capitals ("API …"), and safe to show.
enum Clause {
    static func of(_ message: String) -> String {
        var first = Substring(message.trimmingPrefix(while: \.isWhitespace))
        if let end = first.firstRange(of: ". ") { first = first[..<end.lowerBound] }
        while first.last == "." || first.last == " " { first = first.dropLast() }
        let word = first.prefix { $0.isLetter }
        guard let head = first.first, word.count < 2 || word != word.uppercased() else { return DisplayText.clean(String(first)) }
        return DisplayText.clean(head.lowercased() + first.dropFirst())
    }
}
