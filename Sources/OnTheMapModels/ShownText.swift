/// The rule for text the server stores and other people are shown: names, places and links, from a
/// pin (either dialect) or an account (`user add`, `user rename`: names and the email). One rule, so
/// no path stores what another refuses.
///
/// Refused: control characters (C0, DEL, C1), which act on the terminal or status bar that prints
/// them (ESC starts a command, CR returns to the start of the line), and the line separators U+2028
/// and U+2029, which break a status bar's or a page's line; and in links and emails the bidirectional
/// controls (U+202A–U+202E, U+2066–U+2069 and the marks), which make a link ending in U+202E `gnp.exe` read as
/// one ending in `exe.png`, and the other format characters (Cf: U+200B, U+2060, U+FEFF …), which
/// show as nothing, so `https://x.example/\u{200B}` looks like `https://x.example/`.
/// Names and places may hold them: right-to-left names need the bidi marks, emoji and Persian or
/// Indic names the joiners (U+200C, U+200D), and what shows them neutralises them.
public enum ShownText {
    /// What a value is, for the rule and for the message.
    public enum Kind: Sendable {
        case name
        case place
        case link
        /// A login email (`user add`), shown to the admin by `user list`.
        case email
    }

    /// The longest email address there can be (RFC 5321's path limit, less its angle brackets): a
    /// longer login name is refused before it is looked up or counted against its attempts.
    public static let maxEmailBytes = 254

    /// Why `value` may not be stored, and what to do (a phrase to follow the field's name:
    /// "contains …: remove it"), or nil.
    public static func problem(in value: String, kind: Kind) -> String? {
        reason(in: value, kind: kind).map { $0 + ": remove it" }
    }

    /// Why `value` may not be stored ("contains …"), or nil; without the advice, for a value that
    /// the person told cannot change (their account's name, which the daemon posts).
    public static func reason(in value: String, kind: Kind) -> String? {
        for scalar in value.unicodeScalars {
            if DisplayText.isControl(scalar) {
                return "contains a control character (\(code(scalar))), which is not text"
            }
            if DisplayText.isLineSeparator(scalar) {
                return "contains a line separator (\(code(scalar))), which breaks the line wherever it is shown"
            }
            if kind == .link || kind == .email, DisplayText.isBidiControl(scalar) {
                let what = kind == .link ? "a link" : "an address"
                return "contains a bidirectional control (\(code(scalar))), which can make \(what) read as another"
            }
            if kind == .link || kind == .email, DisplayText.isFormat(scalar) {
                let what = kind == .link ? "a link" : "an address"
                return "contains an invisible character (\(code(scalar))), which can make \(what) read as another"
            }
        }
        return nil
    }

    /// The longest first or last name, in code points: not letters as drawn, which can carry any
    /// number of marks (a 100-letter name of 30 KB, drawn over the rows around it in a terminal).
    public static let maxNameLength = 100

    /// Why a first or last name may not be stored (nil: it may): longer than `maxNameLength`,
    /// `problem(in:)`, or empty (or only spaces). A control character is named before emptiness is
    /// judged: U+0085 is a control and a line end, and a name of it alone was "empty".
    public static func problem(inName value: String) -> String? {
        if value.unicodeScalars.count > maxNameLength { return "is longer than \(maxNameLength) characters" }
        if let problem = problem(in: value, kind: .name) { return problem }
        if value.trimmingWhitespace().isEmpty { return "is empty: every student on the map has a first and a last name" }
        return nil
    }

    private static func code(_ scalar: Unicode.Scalar) -> String { DisplayText.codePoint(scalar) }
}
