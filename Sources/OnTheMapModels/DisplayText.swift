/// Text that other people wrote (names, places, links), made safe to show in a terminal, a status
/// bar, an editor or a TSV line: the one sanitiser for display.
///
/// A terminal obeys control characters (ESC starts a sequence that can erase lines or retitle the
/// window, BEL rings, CR returns to the start of the line, C1's U+009B is an ESC [ of its own), and
/// Unicode's bidi controls (overrides U+202A–U+202E, isolates U+2066–U+2069, marks) make `…/\u{202E}gnp.exe` read as
/// `…/exe.png`. So: tab, line feed and carriage return become a space (a field stays one field on one
/// line), and so do the line and paragraph separators U+2028 and U+2029; every other C0 control, DEL
/// and every C1 control becomes U+FFFD (the text shows that something was there), and bidi overrides
/// and isolates are dropped, and so are combining marks past the fourth on one character. Everything
/// else, accents and scripts of every language included, is kept. `--json` keeps the data exact instead: JSON escapes
/// what it must.
public enum DisplayText {
    /// `text` as it may be shown.
    public static func clean(_ text: String) -> String {
        var marksInARow = 0
        let needsCleaning = text.unicodeScalars.contains { scalar in
            marksInARow = isCombiningMark(scalar) ? marksInARow + 1 : 0
            return isControl(scalar) || isBidiControl(scalar) || isLineSeparator(scalar) || marksInARow > maxMarksInARow
        }
        guard needsCleaning else { return text }
        var scalars = String.UnicodeScalarView()
        marksInARow = 0
        for scalar in text.unicodeScalars {
            // Dropped before marks are counted: it shows as nothing, so the marks either side of it
            // stack on one character (a mark, U+200E, a mark, … drew a dozen on a letter).
            if isBidiControl(scalar) { continue }
            marksInARow = isCombiningMark(scalar) ? marksInARow + 1 : 0
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: scalars.append(" ")
            case _ where isControl(scalar): scalars.append("\u{FFFD}")
            case _ where marksInARow > maxMarksInARow: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The most combining marks kept on one character. Written languages stack up to three or four
    /// (Vietnamese two, pointed Hebrew with cantillation four); "Zalgo" text stacks dozens, drawn
    /// over the rows above and below in a terminal, a bar or an editor.
    public static let maxMarksInARow = 4

    /// A mark drawn on the character before it (Unicode's Mn and Me: accents, vowel points).
    /// Looked up only past U+02FF, where the first marks are: names and links are mostly below.
    public static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return false }
        let category = scalar.properties.generalCategory
        return category == .nonspacingMark || category == .enclosingMark
    }

    /// C0 controls, DEL and C1 controls (Unicode's general category Cc, which is these 65 code
    /// points in every version). Written out rather than looked up: the look-up, for every scalar of
    /// every link in a list of 10,000, was a sixth of a refresh's time.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Unicode's line and paragraph separators (U+2028, U+2029): not controls, but a status bar's
    /// markup (Pango) and a web page's text break the line there, as at a line feed.
    public static func isLineSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// The bidi embeddings, overrides, isolates and marks (Unicode's Bidi_Control), which reorder
    /// the text around them.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        // Unicode's Bidi_Control, written out like `isControl` (held to Unicode's data by a test).
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Unicode's format characters (general category Cf): most show as nothing (the zero-width space
    /// U+200B, the joiners U+200C and U+200D, the word joiner U+2060, U+FEFF, the bidi controls), so
    /// a link holding one can look like another. Text that is ASCII is answered without the look-up.
    public static func isFormat(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAD && scalar.properties.generalCategory == .format
    }

    /// `U+001B`, as Unicode charts write a code point.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// A character as a log line shows it: a control character or a bidi control written as its code
    /// point (`\u{1B}`), so no text from elsewhere (a request, an upstream's error) can move the
    /// cursor of whoever reads the log, reorder the line, or start a line of its own.
    public static func escapedForLog(_ scalar: Unicode.Scalar) -> String {
        isControl(scalar) || isBidiControl(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
    }

    /// `text` as a log line shows it (`escapedForLog(_:)` for each character).
    public static func escapedForLog(_ text: String) -> String {
        guard holdsControls(text) else { return text }
        return text.unicodeScalars.map(escapedForLog).joined()
    }

    /// JSON text with the characters JSON leaves raw and `clean` would not show (DEL, C1, bidi
    /// controls, U+2028 and U+2029) written as `\u` escapes: the same data for any JSON reader, and
    /// nothing a terminal obeys or that reorders a line (`--json` read on a terminal).
    public static func escapedInJSON(_ json: [UInt8]) -> [UInt8] {
        func invisible(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value >= 0x7F && (isControl(scalar) || isBidiControl(scalar) || isLineSeparator(scalar))
        }
        let text = String(decoding: json, as: UTF8.self)
        guard text.unicodeScalars.contains(where: invisible) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard invisible(scalar) else {
                escaped.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return Array(String(escaped).utf8)
    }

    /// Whether `text` holds a control character or a bidi override or isolate.
    public static func holdsControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { isControl($0) || isBidiControl($0) }
    }
}
