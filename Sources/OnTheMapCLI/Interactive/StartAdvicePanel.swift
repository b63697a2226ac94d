import OnTheMapSupport

/// How to start the daemon again, drawn over the bottom of the map while it is away. The status line
/// alone cut the advice off: at 80 columns it showed "Start it again as it was started" and none of
/// the command. Here the whole advice is wrapped to the terminal, each command in it kept whole on a
/// line where it fits; one too long for a line gets lines of its own, broken at its spaces and ending
/// in ` \`, so that what is shown can be pasted into a shell as it is (a command cut at a line's end
/// would run without its `--api-url`).
struct StartAdvicePanel {
    /// `StartAdvice`'s sentence; commands in backquotes.
    var advice: String

    /// The advice in lines at most `width` wide (a single word wider than that is cut by the drawing).
    func lines(width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        func add(_ word: String, glued: Bool = false) {
            let joined = line.isEmpty ? word : line + (glued ? "" : " ") + word
            if line.isEmpty || DisplayWidth.of(joined) <= width {
                line = joined
            } else {
                lines.append(line)
                line = word
            }
        }
        var afterBlock = false
        for (index, segment) in advice.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            if index % 2 == 1 {
                let command = String(segment)
                // Room for the punctuation that may follow it (".", ",").
                if DisplayWidth.of(command) + 3 <= width {
                    add("`" + command + "`")
                } else {
                    if !line.isEmpty { lines.append(line) }
                    line = ""
                    lines += Self.commandLines(command, width: width)
                    afterBlock = true
                }
                continue
            }
            var prose = Substring(segment)
            if afterBlock {
                // The sentence's "." or ", or …" after a command set apart: the punctuation goes, so the
                // command's last line is only the command.
                prose = prose.drop { $0 == "." || $0 == "," || $0 == " " }
                afterBlock = false
            }
            for (position, word) in prose.split(separator: " ", omittingEmptySubsequences: false).enumerated() where !word.isEmpty {
                // Punctuation right after a command (no space before it) stays on its line.
                add(String(word), glued: position == 0 && index > 0)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A command on lines of its own, indented, broken at its spaces with ` \` (the shell's line
    /// continuation); a word longer than a line is cut with `\` alone, the rest of it at the start of
    /// the next line (an indent there would split the word in two).
    static func commandLines(_ command: String, width: Int) -> [String] {
        let continuation = " \\"
        var lines: [String] = []
        var line = "  "
        var fresh = true
        for word in command.split(separator: " ") {
            var word = String(word)
            if DisplayWidth.of(line + (fresh ? "" : " ") + word + continuation) <= width {
                line += (fresh ? "" : " ") + word
                fresh = false
                continue
            }
            if !fresh {
                lines.append(line + continuation)
                line = "    "
            }
            while DisplayWidth.of(line + word + continuation) > width {
                let room = max(width - DisplayWidth.of(line) - 1, 1)
                var cut = ""
                for character in word {
                    if !cut.isEmpty, DisplayWidth.of(cut + String(character)) > room { break }
                    cut.append(character)
                }
                guard cut.count < word.count else { break }
                lines.append(line + cut + "\\")
                word.removeFirst(cut.count)
                line = ""
            }
            line += word
            fresh = false
        }
        lines.append(line)
        return lines
    }

    /// The panel over the map's bottom rows, above the status line: a blank line, then the advice,
    /// each line cleared across the screen (no borders: a copied command holds only itself).
    func overlay(columns: Int, rows: Int, colour: Bool) -> String {
        let shown = lines(width: max(columns - 2, 1)).prefix(max(rows - 3, 0))
        guard !shown.isEmpty else { return "" }
        let top = rows - 1 - shown.count
        var text = "\u{1B}[\(top);1H\u{1B}[2K"
        for (offset, line) in shown.enumerated() {
            let content = " " + DisplayWidth.truncate(line.replacingControlCharacters(), to: max(columns - 2, 1))
            text += "\u{1B}[\(top + 1 + offset);1H\u{1B}[2K" + (colour ? "\u{1B}[1m" + content + "\u{1B}[0m" : content)
        }
        return text
    }
}
