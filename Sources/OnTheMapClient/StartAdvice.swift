import Glibc
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport
import SystemPackage

/// What to do when no daemon answers: one sentence, decided here once for every client (the CLI's
/// messages, the bars' tooltips, and through `onthemap status` both editors), from what this machine
/// has:
///
/// 1. the word whatever started the daemon left beside its socket, `SOCKET.how-to-start`: a daemon
///    started by hand writes the command line it was started with, its `--api-url` included
///    (onthemapd's `StartHint`), `make demo` writes `cd DIR && make demo`;
/// 2. else systemd's user manager, when there is one and the socket unit is installed;
/// 3. else `onthemapd` by hand, on the socket that was named;
///
/// and none of them when the path named holds a file of another kind (a mistyped `--socket`).
public enum StartAdvice {
    /// The file beside a socket in which whatever starts a daemon there says how to start it again,
    /// one line: `SOCKET.how-to-start`.
    public static func hintPath(forSocket path: String) -> String { path + ".how-to-start" }

    /// The advice for `paths`, the sockets tried in order; `named`: one path named by hand
    /// (`--socket`, `$ONTHEMAP_SOCKET`), else the default ones.
    public static func advice(for paths: [String], named: Bool) -> String {
        if named, let path = paths.first, isOtherFile(path) {
            // Starting a daemon there is not the answer (it would refuse the path): the name is wrong.
            return "\(path) is not onthemapd's socket but a file of another kind: name the daemon's socket with --socket or ONTHEMAP_SOCKET, or neither for the default."
        }
        if let hint = paths.lazy.compactMap(hint(forSocket:)).first { return "Start it again as it was started: `\(hint)`." }
        let byHand = named ? "onthemapd --socket \(ShellWord.quoted(paths.first ?? ""))" : "onthemapd"
        switch userManager() {
        case .usable(let unitInstalled) where unitInstalled:
            return named
                ? "Start one with `\(byHand) &`, or name no socket and run `systemctl --user start onthemapd.socket`."
                : "Start it with `systemctl --user start onthemapd.socket`, or run `onthemapd &`."
        case .usable:
            return "Start \(named ? "one" : "it") with `\(byHand) &` (onthemapd.socket is not installed for systemd: `make install` installs it)."
        case .none:
            return "Start \(named ? "one" : "it") with `\(byHand) &` (\(noUserManager))."
        }
    }

    /// What to do when `path` is another user's socket: use your own daemon, as it was named (no
    /// start advice: theirs may well be running, and starting one there is not yours to do).
    public static func useYourOwn(instead path: String, named: Bool) -> String {
        if named, environment("ONTHEMAP_SOCKET") == path {
            return "To use your own, unset ONTHEMAP_SOCKET, or set it to your own daemon's socket."
        }
        if named { return "To use your own, leave out --socket, or give it your own daemon's socket." }
        return "To use your own, name its socket with --socket or ONTHEMAP_SOCKET ($XDG_RUNTIME_DIR may be another user's, as after `su`)."
    }

    /// Whether `path` is one of the sockets tried when none is named (`SocketPath.candidates`), so
    /// that the advice for it is not "leave out --socket".
    static func isDefaultSocket(_ path: String) -> Bool {
        SocketPath.candidates(flag: nil, environment: { $0 == "ONTHEMAP_SOCKET" ? nil : environment($0) }).contains(path)
    }

    /// Where the daemon's log is: systemd's journal for the installed service, else the standard
    /// error of whatever started it by hand (a terminal, `make demo`'s run/daemon.log).
    public static var whereItsLogIs: String {
        if case .usable(unitInstalled: true) = userManager() { return "`journalctl --user -u onthemapd`" }
        return "the standard error of the onthemapd you started (its terminal, or run/daemon.log for make demo)"
    }

    /// Whether something other than a socket is at `path` (a symbolic link is followed, as connecting does).
    static func isOtherFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFSOCK
    }

    private static let noUserManager =
        "there is no systemd user manager here, so `systemctl --user` cannot; onthemapd(1) says how to start it at login"

    /// The first line of the hint beside `path`, printable, when there is one.
    static func hint(forSocket path: String) -> String? {
        guard let file = fopen(hintPath(forSocket: path), "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Whoever could write the file could put an escape sequence in the advice: none is shown.
        let printable = String(String.UnicodeScalarView(line.unicodeScalars.filter { !DisplayText.isControl($0) && !DisplayText.isBidiControl($0) }))
        let trimmed = printable.drop { $0 == " " }
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    enum UserManager {
        case none
        /// A user manager answers; whether it knows `onthemapd.socket`.
        case usable(unitInstalled: Bool)
    }

    /// Whether `systemctl --user` can reach a user manager: it talks to it through
    /// `$XDG_RUNTIME_DIR/systemd/private` (pam_systemd sets the variable). Containers, WSL and some
    /// servers have none ("Failed to connect to bus").
    static func userManager() -> UserManager {
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return .none }
        var status = stat()
        guard stat(FilePath(runtime).appending("systemd/private").string, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK
        else { return .none }
        return .usable(unitInstalled: unitDirectories().contains { access($0.appending("onthemapd.socket").string, F_OK) == 0 })
    }

    /// Where a user manager looks for units (systemd.unit(5), "User Unit Search Path"), less the
    /// runtime ones nobody installs into.
    static func unitDirectories() -> [FilePath] {
        let config = XDGDirectory.path("XDG_CONFIG_HOME", fallback: ".config", environment: environment)
        let data = XDGDirectory.path("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
        let dataDirectories = (environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map { FilePath(String($0)) }.filter(\.isAbsolute)
        return ([config, "/etc", data] + dataDirectories).map { $0.appending("systemd/user") }
            + ["/usr/local/lib/systemd/user", "/usr/lib/systemd/user", "/lib/systemd/user"]
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
