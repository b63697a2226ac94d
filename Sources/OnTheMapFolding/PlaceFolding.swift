import CFolding

/// Turns names and queries into the form the gazetteer compares: lower case, no accents, words
/// separated by one space ("Baden-Württemberg" → "baden wurttemberg", "東京" stays "東京").
///
/// The rules for non-ASCII characters come from the embedded fold table (CFolding's `folding.tsv`,
/// written by Python's NFKD in scripts/build-gazetteer.py from the characters the gazetteer's names
/// use). The gazetteer's names, geocoding queries and every search (the daemon's, `onthemap open`)
/// go through this one function, so they always agree, whatever the table says.
public struct PlaceFolding: Sendable {
    /// Non-ASCII scalar → its folded UTF-8 bytes (may be empty, or a space for punctuation).
    private var table: [UInt32: [UInt8]] = [:]

    /// The embedded table's rules: its `F` lines (about 2,100).
    public static let standard: PlaceFolding = {
        var count = 0
        let start = onthemap_folding_bytes(&count)!
        let text = UnsafeBufferPointer(start: start, count: count)
        var folding = PlaceFolding()
        for line in text.split(separator: 0x0A) where line.first == UInt8(ascii: "F") {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            if fields.count >= 3, let scalar = String(decoding: fields[1], as: UTF8.self).unicodeScalars.first {
                folding.table[scalar.value] = Array(fields[2])
            }
        }
        return folding
    }()

    /// Appends the folded form of `bytes` (UTF-8) to `output`, words separated by single spaces.
    public func fold(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        let start = output.count
        var pendingSpace = false
        func emit(_ byte: UInt8) {
            if byte == 0x20 {
                pendingSpace = true
                return
            }
            if pendingSpace && output.count > start { output.append(0x20) }
            pendingSpace = false
            output.append(byte)
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): emit(byte | 0x20)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): emit(byte)
                case UInt8(ascii: "&"):
                    // "Bosnia & Herzegovina" is "Bosnia and Herzegovina".
                    emit(0x20)
                    for letter in "and".utf8 { emit(letter) }
                    emit(0x20)
                default: emit(0x20)
                }
                continue
            }
            let (scalar, length) = Self.decodeScalar(bytes, at: index)
            index += length
            if let folded = table[scalar] {
                for byte in folded { emit(byte) }
            } else if let value = Unicode.Scalar(scalar) {
                for byte in Self.defaultFold(value) { emit(byte) }
            } else {
                emit(0x20)
            }
        }
        expandAbbreviations(in: &output, from: start)
    }

    /// Abbreviations that begin a name, spelt out: "St. Kitts & Nevis" is "saint kitts and nevis",
    /// "Ft. Lauderdale" "fort lauderdale". Only before another word: a last word "st" is a street
    /// ("Main St"), which `PlaceQuery` reads as an address. Keyed by `shortWordKey`.
    static let abbreviations: [UInt32: [UInt8]] = Dictionary(
        uniqueKeysWithValues: [("st", "saint"), ("ste", "sainte"), ("mt", "mount"), ("ft", "fort")].map {
            (shortWordKey(Array($0.0.utf8)[...])!, Array($0.1.utf8))
        })

    /// A word of at most four bytes packed into one integer (distinct words, distinct keys: folded
    /// words hold no zero byte), nil for a longer one. Looking a word up this way builds no array:
    /// folding runs on each of the 400,000 names the gazetteer indexes on its first query.
    static func shortWordKey(_ word: ArraySlice<UInt8>) -> UInt32? {
        guard word.count <= 4 else { return nil }
        return word.reduce(0) { $0 << 8 | UInt32($1) }
    }

    private func expandAbbreviations(in output: inout [UInt8], from start: Int) {
        var wordStart = start
        var index = start
        while index < output.count {
            guard output[index] == 0x20 else {
                index += 1
                continue
            }
            // A word followed by another one.
            if let key = Self.shortWordKey(output[wordStart..<index]), let expanded = Self.abbreviations[key] {
                output.replaceSubrange(wordStart..<index, with: expanded)
                index += expanded.count - (index - wordStart)
            }
            index += 1
            wordStart = index
        }
    }

    /// Folds a Swift string.
    public func fold(_ text: some StringProtocol) -> [UInt8] {
        var output: [UInt8] = []
        var text = String(text)
        text.withUTF8 { fold($0, into: &output) }
        return output
    }

    /// What Python's rule gives for characters the table does not list: letters, digits and marks
    /// are kept (lower-cased), accents that stand alone are dropped, everything else separates words.
    private static func defaultFold(_ scalar: Unicode.Scalar) -> [UInt8] {
        switch scalar.properties.generalCategory {
        // A format character (a zero-width space or joiner, a bidi mark or override, U+FEFF) shows
        // as nothing: pasted into "Li\u{200B}ma" it must not make two words of "Lima".
        case .nonspacingMark, .format:
            return []
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .spacingMark, .enclosingMark:
            return Array(scalar.properties.lowercaseMapping.utf8)
        default:
            return [0x20]
        }
    }

    /// Decodes one UTF-8 sequence; malformed bytes read as U+FFFD, one byte at a time.
    private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return (0xFFFD, 1)
        }
        guard index + length <= bytes.count else { return (0xFFFD, 1) }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        return (value, length)
    }
}
