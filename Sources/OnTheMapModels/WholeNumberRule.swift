/// The one sentence for a whole number outside its range, as the daemon's params and the server's
/// query parameters say it: "limit must be a whole number between 0 and 1000, not 1.5". The range
/// and what was given are both said: "must be a whole number, 0 or more" for 2147483648, a whole
/// number, left the reader to guess the upper bound.
public enum WholeNumberRule {
    /// "must be a whole number between 0 and 1000, not 1.5": the rule after the name it is about;
    /// `given` as a message may repeat it (`shown(_:)` for text from a request).
    public static func requirement(_ range: ClosedRange<Int>, given: String) -> String {
        "must be a whole number between \(range.lowerBound) and \(range.upperBound), not \(given)"
    }

    /// The whole number `text` is, when `range` holds it.
    public static func read(_ text: String, in range: ClosedRange<Int>) -> Int? {
        Int(text).flatMap { range.contains($0) ? $0 : nil }
    }

    /// What a request gave, as a message repeats it: printable ASCII as sent ("1.5", "-1", "abc"),
    /// cut at 24 characters; "nothing" for an empty value; anything else (a control character, a
    /// right-to-left override) described, never repeated.
    public static func shown(_ text: String) -> String {
        if text.isEmpty { return "nothing" }
        guard text.utf8.allSatisfy({ (0x21..<0x7F).contains($0) }) else { return "text that is no number" }
        return text.count > 24 ? text.prefix(24) + "…" : text
    }
}
