import Glibc

/// The terminal in raw mode on the alternate screen, for full-screen use, and always given back:
/// `restore()` runs on every way out (quit, a signal, a lost daemon, and at exit as a last resort).
enum RawTerminal {
    /// The settings found on entry; set once, read by `restore` (also from `atexit`).
    nonisolated(unsafe) private static var saved: termios?

    /// Raw input (no echo, no line editing, no signals from keys), the alternate screen, no cursor.
    static func enter() throws {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw UsageFailure(message: "the full-screen map needs a terminal")
        }
        saved = original
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        // Reads return as soon as a byte is there.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        atexit { RawTerminal.restore() }
        // The alternate screen, no cursor, and the mouse: buttons, motion while a button is down, in
        // SGR encoding (1006), which terminals that know it use and others ignore.
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h")
    }

    /// Leaves the alternate screen and puts the saved settings back; safe to call more than once.
    static func restore() {
        guard var original = saved else { return }
        saved = nil
        write("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    /// Writes to the terminal in one go.
    static func write(_ text: String) {
        _ = Output.writeAll(Array(text.utf8), to: STDOUT_FILENO)
    }
}
