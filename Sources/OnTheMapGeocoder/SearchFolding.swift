import CGazetteer

/// Text folded for case- and accent-insensitive search ("São Paulo" and "SAO PAULO" are both
/// "sao paulo"): the gazetteer's own folding (`PlaceFolding`), so a search for a place in the daemon's
/// list and a geocoding query read accents alike, without Foundation's (ICU's) folding.
public enum SearchFolding {
    /// The folding rules alone: the `F` lines at the top of the embedded gazetteer, read without
    /// indexing its places (about 2,100 rules).
    private static let rules: PlaceFolding = {
        var count = 0
        let start = onthemap_gazetteer_bytes(&count)!
        let text = UnsafeBufferPointer(start: start, count: count)
        var folding = PlaceFolding()
        var lineStart = 0
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != 0x0A { lineEnd += 1 }
            let line = UnsafeBufferPointer(rebasing: text[lineStart..<lineEnd])
            if let first = line.first, first != UInt8(ascii: "#") {
                // The rules come first; the first line of another kind ends them.
                guard first == UInt8(ascii: "F") else { break }
                let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
                if fields.count >= 3, let scalar = String(decoding: fields[1], as: UTF8.self).unicodeScalars.first {
                    folding.addRule(scalar.value, folded: Array(fields[2]))
                }
            }
            lineStart = lineEnd + 1
        }
        return folding
    }()

    /// `text` lower-cased, without accents, its words separated by single spaces.
    public static func fold(_ text: some StringProtocol) -> String {
        String(decoding: rules.fold(text), as: UTF8.self)
    }
}
