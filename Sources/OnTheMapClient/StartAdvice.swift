#if canImport(Glibc)
import Glibc
#endif

/// How to start a daemon where nothing answered, as the message of `ClientError.cannotConnect`
/// says it: what started the one meant, if it left word (the demo), else systemd's user manager
/// when there is one, else `onthemapd` by hand.
enum StartAdvice {
    /// The file beside a socket in which whatever starts a daemon there says how to start it again,
    /// one line (`make demo` writes `cd DIR && make demo`): `SOCKET.how-to-start`.
    static func hintPath(forSocket path: String) -> String { path + ".how-to-start" }

    /// For a socket named by hand (`--socket`, `$ONTHEMAP_SOCKET`); the path quoted for the shell.
    static func forNamedSocket(_ path: String) -> String {
        if let hint = hint(forSocket: path) { return "Start it again with `\(hint)`." }
        let byHand = "onthemapd --socket \(ShellWord.quoted(path))"
        guard userManagerIsUsable() else {
            return "Start one there with `\(byHand)` (in the background or from a login script: \(noUserManager))."
        }
        return "Start one there with `\(byHand)` (or name no socket and run `systemctl --user start onthemapd.socket`)."
    }

    /// For the default paths.
    static var forDefaultSocket: String {
        guard userManagerIsUsable() else { return "Start it with `onthemapd &` (\(noUserManager))." }
        return "Start it with `systemctl --user start onthemapd.socket`, or run `onthemapd`."
    }

    private static let noUserManager =
        "there is no systemd user manager here, so `systemctl --user` cannot; onthemapd(1) says how to start it at login"

    /// The first line of the hint beside `path`, printable, when there is one.
    static func hint(forSocket path: String) -> String? {
        guard let file = fopen(hintPath(forSocket: path), "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let printable = String(String.UnicodeScalarView(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        let trimmed = printable.drop { $0 == " " }
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// Whether `systemctl --user` can reach a user manager: it talks to it through
    /// `$XDG_RUNTIME_DIR/systemd/private` (pam_systemd sets the variable). Containers, WSL and some
    /// servers have none ("Failed to connect to bus").
    static func userManagerIsUsable() -> Bool {
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty else { return false }
        var status = stat()
        return stat(runtime + "/systemd/private", &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }
}
