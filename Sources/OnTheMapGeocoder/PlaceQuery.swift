import OnTheMapFolding

/// What a person typed, split the way the matcher reads it: comma-separated parts, each a list of
/// folded words. `nil` from `parse` means the text cannot name a place (empty, a URL, an e-mail
/// address, only symbols or numbers), so no lookup is even tried.
public struct PlaceQuery {
    struct Part {
        var words: [[UInt8]]
        /// Words with a digit (house numbers, postcodes): never matched, never held against a reading.
        var ignorable: [Bool]
        /// Looks like a street address ("1600 Amphitheatre Parkway", "Unter den Linden 77"): a street
        /// word, or a number among other words. Its unmatched words are expected, not held against a reading.
        var isAddress: Bool
    }

    var parts: [Part]

    /// Longer text is not a place; the cap also bounds the work one query can cause.
    public static let maximumBytes = 300

    static func parse(_ text: String, folding: PlaceFolding) -> PlaceQuery? {
        guard text.utf8.count <= maximumBytes else { return nil }
        let lowered = text.lowercased()
        if lowered.contains("://") || lowered.contains("www.") || lowered.contains("@") { return nil }
        var parts: [Part] = []
        for piece in text.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\n" }) {
            if piece.split(whereSeparator: \.isWhitespace).contains(where: looksLikeDomain) { return nil }
            let words = folding.fold(piece).split(separator: 0x20).map(Array.init)
            guard !words.isEmpty else { continue }
            let ignorable = words.map { $0.contains { (0x30...0x39).contains($0) } }
            let isAddress = words.contains { streetWords.contains($0) } || (ignorable.contains(true) && words.count > 1)
            parts.append(Part(words: words, ignorable: ignorable, isAddress: isAddress))
        }
        let hasWord = parts.contains { part in part.ignorable.contains(false) }
        return hasWord ? PlaceQuery(parts: parts) : nil
    }

    /// "udacity.com", "example.org/path": a dot between letters, ending in a 2–6 letter label.
    private static func looksLikeDomain(_ word: Substring) -> Bool {
        let trimmed = word.trimmingSuffix { ".,;:!?)".contains($0) }
        guard let dot = trimmed.lastIndex(of: "."), dot != trimmed.startIndex else { return false }
        let label = trimmed[trimmed.index(after: dot)...].prefix { $0 != "/" }
        let before = trimmed[trimmed.index(before: dot)]
        return (2...6).contains(label.count) && label.allSatisfy { $0.isASCII && $0.isLetter } && before.isLetter
    }

    /// Folded words that mark a street address, in the languages students write them in.
    static let streetWords: Set<[UInt8]> = Set(
        [
            "street", "st", "avenue", "ave", "av", "avenida", "road", "rd", "parkway", "pkwy", "boulevard",
            "blvd", "lane", "ln", "drive", "dr", "way", "court", "ct", "place", "pl", "square", "sq", "highway",
            "hwy", "strasse", "str", "gasse", "weg", "platz", "allee", "rue", "chemin", "calle", "carrera", "rua",
            "via", "viale", "corso", "straat", "laan", "ulica", "ul", "apartment", "apt", "suite", "floor",
        ].map { Array($0.utf8) })
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
