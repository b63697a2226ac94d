import Foundation
import OnTheMapTestSupport
import Testing

/// Another user's daemon, in the editors: a real `onthemapd` started as root, and the real Neovim
/// (headless) and `emacs --batch` run as nobody (uid 65534, through setpriv) with ONTHEMAP_SOCKET
/// naming it. Its socket as the daemon made it (0600, in folders others may pass through: connecting
/// is not permitted), and opened up (0666: the daemon answers -32010 and closes). Either way the
/// statusline and the mode line say "📍 refused", and a command says whose the daemon is and how to
/// use your own, never how to start one (clients/nvim/tests/refused_spec.lua, the ERT test tagged
/// `refused` in clients/emacs/onthemap-tests.el). As SocketSecurityTests does for the CLI.
@Suite("The editors refuse another user's daemon", .ownThreads, .serialized)
struct EditorRefusedTests {
    static let nvim = Executables.find("nvim")
    static let emacs = Executables.find("emacs")
    static let needsRoot: Comment = "needs root to start a daemon of another user (root) and run the editor as nobody"

    /// How the socket is left: as the daemon made it, or opened up by hand.
    enum Socket: String, CaseIterable, Sendable {
        case asMade = "0600"
        case openedUp = "0666"
    }

    @Test(
        .enabled(if: nvim != nil, "nvim is not installed (Debian: apt-get install neovim): the Neovim plugin is not tested"),
        .enabled(if: geteuid() == 0, needsRoot), arguments: Socket.allCases)
    func neovimShowsRefused(socket: Socket) async throws {
        let (result, refusals) = try await runAsNobody(socket: socket, Self.nvim!, NeovimPluginTests.arguments, ["ONTHEMAP_TEST_ONLY": "refused_spec"])
        NeovimPluginTests.expectAllPassed(result, label: "refused_spec, socket \(socket.rawValue)")
        // Opened up, the daemon saw each attempt and refused it: the statusline asked again.
        if socket == .openedUp { #expect(refusals >= 4, "\(refusals) refusals in the daemon's log") }
    }

    @Test(
        .enabled(if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the Emacs package is not tested"),
        .enabled(if: geteuid() == 0, needsRoot), arguments: Socket.allCases)
    func emacsShowsRefused(socket: Socket) async throws {
        // `emacs --batch` keeps SIGPIPE's default: a request written after a daemon's whole close
        // would end the run. The daemon ends only its side (RefusingHandler), so the request goes
        // out and the refusal is read, every time.
        let (result, refusals) = try await runAsNobody(
            socket: socket, Self.emacs!, EmacsPackageTests.ertArguments(selector: "(tag refused)"),
            // onthemap-tests.el reads the account when loaded; this test logs in nowhere.
            ["EMACS_TEST_VERBOSE": "1", "ONTHEMAP_TEST_PASSWORD": "never-sent"])
        let summary = EmacsPackageTests.expectNoneFailed(result, selector: "(tag refused), socket \(socket.rawValue)")
        #expect(summary?.hasPrefix("Ran 1 tests, 1 results as expected") == true, "\(summary ?? "no summary")")
        if socket == .openedUp { #expect(refusals >= 4, "\(refusals) refusals in the daemon's log") }
    }

    /// Runs `editor` as nobody against a daemon of root's whose socket is left as `socket` says;
    /// returns how it ended and how many clients the daemon refused meanwhile.
    private func runAsNobody(socket: Socket, _ editor: String, _ arguments: [String], _ extra: [String: String]) async throws
        -> (CommandResult, Int)
    {
        try await onOwnThread {
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
            defer { daemon.tearDown() }
            // Only the test's own folders (the daemon's home and the socket's folder in it), never above.
            let socketFolder = URL(fileURLWithPath: daemon.socketPath).deletingLastPathComponent().path
            switch socket {
            case .asMade:
                for folder in [daemon.home.path, socketFolder] { chmod(folder, 0o711) }
            case .openedUp:
                for folder in [daemon.home.path, socketFolder] { chmod(folder, 0o755) }
                chmod(daemon.socketPath, 0o666)
            }
            // The editor's home and files, nobody's.
            let scratch = try TemporaryDirectory(prefix: "onthemap-refused")
            defer { scratch.remove() }
            chmod(scratch.path, 0o755)
            for folder in ["home", "runtime"] {
                try FileManager.default.createDirectory(atPath: scratch.file(folder), withIntermediateDirectories: true)
                chown(scratch.file(folder), 65534, 65534)
                chmod(scratch.file(folder), 0o700)
            }
            var environment = EditorTestBed.environment(socket: daemon.socketPath, scratch: scratch)
            environment["NVIM_LOG_FILE"] = scratch.file("home/nvim.log")
            environment["XDG_RUNTIME_DIR"] = scratch.file("runtime")
            environment["TMPDIR"] = scratch.file("runtime")
            let result = try runSupervised(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", editor] + arguments,
                environment: environment.merging(extra) { $1 }, timeout: 300)
            let refusals = daemon.log.components(separatedBy: "refused a client of another user").count - 1
            return (result, refusals)
        }
    }
}
