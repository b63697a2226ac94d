/// The part of Parse's `$regex` this server runs: literal text, optionally anchored with `^` and `$`,
/// with the `i` option — which is what Parse's SDKs send for `startsWith`, `endsWith` and
/// `contains` (`^\Q…\E`, `\Q…\E$`, `\Q…\E`) and what people write by hand (`^Gra`).
///
/// It becomes a string comparison in SQL (`LocationFilter`'s prefix, suffix or containment), never a
/// regular expression run on the database: nothing a client sends can backtrack for long. Anything
/// beyond literal text (classes, repetition, alternation, groups) is refused with a 102 that says
/// what is accepted, rather than run or silently read differently.
struct ParseRegex: Equatable {
    /// Longest pattern accepted: longer than any field it can match.
    static let maxLength = 256

    var text: String
    var anchoredAtStart: Bool
    var anchoredAtEnd: Bool
    var ignoringCase: Bool

    /// Parses `pattern` and `$options`; throws a 102 naming what cannot be run.
    init(_ pattern: String, options: String?) throws(ParseFailure) {
        guard pattern.unicodeScalars.count <= Self.maxLength else {
            throw .invalidQuery("$regex is limited to \(Self.maxLength) characters")
        }
        let options = options ?? ""
        guard options.allSatisfy({ $0 == "i" }) else {
            throw .invalidQuery("$options may only be i (ignore case), not \(options)")
        }
        ignoringCase = !options.isEmpty
        var scalars = Array(pattern.unicodeScalars)[...]
        anchoredAtStart = scalars.first == "^"
        if anchoredAtStart { scalars = scalars.dropFirst() }
        var literal = String.UnicodeScalarView()
        anchoredAtEnd = false
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\\":
                guard let escaped = scalars.popFirst() else { throw Self.unsupported(pattern) }
                if escaped == "Q" {
                    // \Q…\E: everything up to \E (or the end) is literal.
                    while let next = scalars.popFirst() {
                        if next == "\\", scalars.first == "E" {
                            scalars = scalars.dropFirst()
                            break
                        }
                        literal.append(next)
                    }
                } else if escaped.properties.isAlphabetic || ("0"..."9").contains(escaped) {
                    // \d, \w, \b, \1 …: classes and references, not literal text.
                    throw Self.unsupported(pattern)
                } else {
                    literal.append(escaped)
                }
            case "$" where scalars.isEmpty:
                anchoredAtEnd = true
            case ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "^", "$":
                throw Self.unsupported(pattern)
            default:
                literal.append(scalar)
            }
        }
        text = String(literal)
    }

    /// The condition on `column`.
    func filter(column: String) -> LocationFilter {
        let comparison: LocationFilter.Comparison =
            switch (anchoredAtStart, anchoredAtEnd) {
            case (true, true): .textEqual
            case (true, false): .textPrefix
            case (false, true): .textSuffix
            case (false, false): .textContains
            }
        return LocationFilter(column: column, comparison: comparison, values: [.text(text)], ignoringCase: ignoringCase)
    }

    private static func unsupported(_ pattern: String) -> ParseFailure {
        .invalidQuery(
            "$regex \(pattern) is not supported: this server matches literal text only, optionally anchored with ^ and $ "
                + "(e.g. ^Gra), with characters such as . * + ? ( ) [ ] { } | escaped by \\ or quoted in \\Q…\\E")
    }
}
