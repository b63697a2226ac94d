/// How many terminal columns text takes, by the rule the editor clients follow too (docs/EDITORS.md,
/// "Text width"): East Asian wide characters and emoji shown as pictures (Emoji_Presentation: 🚀, ✨,
/// ☕) take two, combining marks none, format characters that show as nothing (Cf: U+200B, the
/// joiners U+200C and U+200D, U+2060, U+FEFF) none, everything else one; a cut keeps whole
/// characters, a letter with its accents.
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    public static func width(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        // ASCII takes one column: no look-up for nearly every character of a table.
        if value >= 0x20, value < 0x7F { return 1 }
        let category = scalar.properties.generalCategory
        if category == .nonspacingMark || category == .enclosingMark || (0xFE00...0xFE0F).contains(value)
            || (category == .format && !showsAsFormat(value))
        {
            return 0
        }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return scalar.properties.isEmojiPresentation || wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// The format characters a terminal draws: the soft hyphen U+00AD (as a hyphen) and Unicode's
    /// prepended concatenation marks (the Arabic number signs U+0600–U+0605 …).
    private static func showsAsFormat(_ value: UInt32) -> Bool {
        switch value {
        case 0xAD, 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x110BD, 0x110CD: true
        default: false
        }
    }

    /// The longest prefix that fits `columns`, with "…" when cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(String(character))
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// `text` broken at its spaces into lines of at most `columns`; nil when a word is wider than that.
    public static func wrap(_ text: String, to columns: Int) -> [String]? {
        let words = text.split(separator: " ").map(String.init)
        guard words.allSatisfy({ of($0) <= columns }) else { return nil }
        return fill(words, to: columns)
    }

    /// `words` (each kept whole: a word, or words that belong together) joined by spaces into lines of
    /// at most `columns`, as many on a line as fit; one wider than that is a line of its own.
    public static func fill(_ words: [String], to columns: Int) -> [String] {
        var lines: [String] = []
        for word in words {
            if let last = lines.last, of(last) + 1 + of(word) <= columns {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append(word)
            }
        }
        return lines
    }
}
