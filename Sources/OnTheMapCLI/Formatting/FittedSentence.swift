import OnTheMapSupport

/// A sentence over a table, fitted to the terminal's width as the table is (`TextTable`): broken
/// between words into lines that fit, never inside a part kept whole (a command in backquotes, a
/// quoted name); a quoted name too wide for a line is shortened with "…". Without a width (not a
/// terminal) it is one line, as before. A terminal that wrapped it broke words in two, and a
/// 92-column sentence over a table fitted to 40 columns read as two sizes of screen.
struct FittedSentence {
    /// A part of the sentence.
    enum Part {
        /// Words a line may break between.
        case words(String)
        /// Kept on one line as it is.
        case whole(String)
        /// A name in double quotes, then `after` (";"), on one line: the name shortened to fit it.
        case quoted(String, after: String)
    }

    var parts: [Part]

    /// The sentence on one line.
    var text: String { pieces(width: nil).joined(separator: " ") }

    /// The lines, each at most `width` (down to `TextTable.narrowest`); one line without a width.
    func lines(width: Int?) -> [String] {
        guard let width else { return [text] }
        let columns = max(width, TextTable.narrowest)
        return DisplayWidth.fill(pieces(width: columns), to: columns)
    }

    /// What a line may break between.
    private func pieces(width: Int?) -> [String] {
        parts.flatMap { part -> [String] in
            switch part {
            case .words(let text):
                return text.split(separator: " ").map(String.init)
            case .whole(let text):
                return [text]
            case .quoted(let name, let after):
                guard let width else { return ["\"\(name)\"\(after)"] }
                let room = max(1, width - DisplayWidth.of("\"\"" + after))
                return ["\"\(DisplayWidth.truncate(name, to: room))\"\(after)"]
            }
        }
    }
}
