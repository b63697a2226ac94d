import Glibc
import OnTheMapSupport

/// What the terminal (if any) can do.
enum Terminal {
    static var stdinIsTTY: Bool { isatty(STDIN_FILENO) == 1 }
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Colour only on a terminal, and never with `NO_COLOR` (https://no-color.org).
    static var colorOnStdout: Bool { stdoutIsTTY && environment("NO_COLOR").map(\.isEmpty) ?? true }
    static var colorOnStderr: Bool { stderrIsTTY && environment("NO_COLOR").map(\.isEmpty) ?? true }

    /// Columns of the terminal on stdout; nil when stdout is not a terminal (then nothing is truncated).
    static var width: Int? { width(of: STDOUT_FILENO) }
    /// Columns of the terminal on stderr, where questions and their choices are written.
    static var stderrWidth: Int? { width(of: STDERR_FILENO) }
    /// Rows of the terminal on stdout (`LINES` first); nil when stdout is not a terminal.
    static var rows: Int? { rows(of: STDOUT_FILENO) }

    /// Columns of the terminal on `fd` (`TerminalColumns`); nil off a terminal. The one width every
    /// table, sentence and map the CLI prints is fitted to.
    static func width(of fd: Int32) -> Int? { TerminalColumns.of(fd) }

    /// Rows of the terminal on `fd`: `LINES` if set, else the terminal's; nil off a terminal.
    static func rows(of fd: Int32) -> Int? {
        if let rows = positive("LINES") { return rows }
        guard isatty(fd) == 1 else { return nil }
        return measured(fd)?.rows ?? 24
    }

    /// The terminal's own size, as the kernel has it; nil off a terminal.
    static func measured(_ fd: Int32) -> (columns: Int, rows: Int)? { TerminalColumns.measured(fd) }

    private static func positive(_ name: String) -> Int? {
        environment(name).flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `text` for stderr's terminal: each line broken between words where it is wider than the
    /// terminal (a terminal breaks it inside a word, 'Unite' / 'd States'); as it is off a terminal
    /// (a log keeps one line a message), or on one narrower than a table is ever fitted to. A space
    /// at its end (a question's) stays there, for the answer.
    static func fittedToStderr(_ text: String) -> String {
        guard isatty(STDERR_FILENO) == 1, let width = stderrWidth, width >= TextTable.narrowest else { return text }
        return fitted(text, width: width)
    }

    /// `text` with each line wider than `width` broken between words, a command in backquotes whole.
    static func fitted(_ text: String, width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            DisplayWidth.fill(piecesKeepingCommands(line), to: width).joined(separator: "\n")
        }
        return lines.joined(separator: "\n") + (text.hasSuffix(" ") ? " " : "")
    }

    /// The words of `line`, a command in backquotes one piece: copied from the terminal, it must
    /// paste as one line (`systemctl --user start onthemapd.socket`).
    private static func piecesKeepingCommands(_ line: Substring) -> [String] {
        var pieces: [String] = []
        var open = false
        for word in line.split(separator: " ") {
            if open { pieces[pieces.count - 1] += " " + word } else { pieces.append(String(word)) }
            if word.filter({ $0 == "`" }).count % 2 == 1 { open.toggle() }
        }
        return pieces
    }

    /// Asks on the terminal; with `secret`, the answer is not echoed. Nil at end of input.
    static func prompt(_ question: String, secret: Bool = false) -> String? {
        var saved = termios()
        let canHide = secret && tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            // Echo goes off before the prompt appears (as getpass does): whatever is typed after the
            // prompt must neither be echoed nor discarded by the flush.
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
        }
        Output.errorNoNewline(fittedToStderr(question))
        defer {
            if canHide {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                Output.error("")
            }
        }
        let answer = readLine(strippingNewline: true)
        // Ctrl-D: no Enter moved the cursor off the question's line, and what follows must not
        // continue it.
        if answer == nil, !canHide, isatty(STDIN_FILENO) != 0 { Output.error("") }
        return answer
    }

    /// y/N on the terminal.
    static func confirm(_ question: String) -> Bool {
        guard let answer = prompt(question + " [y/N] ") else { return false }
        return ["y", "yes"].contains(answer.lowercased())
    }
}

extension Output {
    static func errorNoNewline(_ text: String) {
        _ = writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
}

/// ANSI styles, applied only when colour is on.
struct Style {
    let enabled: Bool

    func bold(_ text: String) -> String { enabled ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { enabled ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func yellow(_ text: String) -> String { enabled ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
    func red(_ text: String) -> String { enabled ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
}
