import Foundation
import OnTheMapTestSupport
import Testing

/// What the editor tests run against: the real server with demo data and a real daemon (logged
/// out), a second daemon stopped with SIGSTOP (it accepts connections and never answers), a socket
/// file nobody listens on, and a control directory through which an editor test asks for the
/// daemon to be restarted, or the server to be stopped and started again.
final class EditorTestBed: @unchecked Sendable {
    static let email = "demo@onthemap.example"
    static let password = "onthemap-demo"

    /// The repository's root, where clients/ is.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Whether the bed can make a socket file of another user: only root can give a file away.
    static let canMakeForeignSocket = geteuid() == 0
    /// Why the tests that need that socket are skipped otherwise.
    static let foreignSocketNeedsRoot: Comment =
        "needs root to make a socket file of another user (nobody), which the editor must refuse"

    let server: ServerFixture
    let daemon: DaemonProcess
    let hungDaemon: DaemonProcess
    let scratch: TemporaryDirectory
    let deadSocket: String
    let foreignSocket: String?
    let control: String

    /// `students` on the server; `daemonArguments` added to the daemon's command line.
    init(students: Int = 150, daemonArguments: [String] = []) throws {
        server = try ServerFixture()
        try server.seedDemo(count: students)
        daemon = try DaemonProcess(apiURL: server.baseURL, arguments: daemonArguments)
        hungDaemon = try DaemonProcess(apiURL: server.baseURL)
        hungDaemon.signal(SIGSTOP)
        scratch = try TemporaryDirectory(prefix: "onthemap-editor")
        deadSocket = scratch.file("dead.sock")
        try Self.makeStaleSocket(deadSocket)
        // As root, a socket file of another user (nobody), which the editors must refuse (the tests
        // enabled by `canMakeForeignSocket`).
        if Self.canMakeForeignSocket {
            foreignSocket = scratch.file("foreign.sock")
            try Self.makeStaleSocket(foreignSocket!)
            chown(foreignSocket!, 65534, 65534)
        } else {
            foreignSocket = nil
        }
        control = scratch.file("control")
        try FileManager.default.createDirectory(atPath: control, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.file("home"), withIntermediateDirectories: true)
    }

    /// A bed of thousands, for the counts the editors group by three as the CLI does: 10,001
    /// students on the server (a search looks at "only the newest 10,000") and 1,100 in the
    /// daemon's cache ("📍 1,100", "100 of 1,100 students").
    static func thousands() throws -> EditorTestBed {
        try EditorTestBed(students: 10_001, daemonArguments: ["--cache-size", "1100"])
    }

    /// The editors' environment: the sockets, the account, the CLI, and a home of their own so no
    /// user configuration is read and nothing is written outside the scratch directory.
    var environment: [String: String] {
        Self.environment(socket: daemon.socketPath, scratch: scratch).merging([
            "ONTHEMAP_TEST_EMAIL": Self.email,
            "ONTHEMAP_TEST_PASSWORD": Self.password,
            "ONTHEMAP_TEST_DEAD_SOCKET": deadSocket,
            "ONTHEMAP_TEST_HUNG_SOCKET": hungDaemon.socketPath,
            "ONTHEMAP_TEST_CONTROL": control,
            "ONTHEMAP_TEST_FOREIGN_SOCKET": foreignSocket ?? "",
        ]) { $1 }
    }

    /// What every editor run gets: the daemon's `socket`, the CLI, and a home in `scratch` (its
    /// `home` folder must exist).
    static func environment(socket: String, scratch: TemporaryDirectory) -> [String: String] {
        [
            "ONTHEMAP_SOCKET": socket,
            "ONTHEMAP_TEST_CLI": BuiltProducts.path("onthemap"),
            "HOME": scratch.file("home"),
            "XDG_CONFIG_HOME": scratch.file("home/.config"),
            "XDG_DATA_HOME": scratch.file("home/.local/share"),
            "XDG_STATE_HOME": scratch.file("home/.local/state"),
            "XDG_CACHE_HOME": scratch.file("home/.cache"),
            "NVIM_LOG_FILE": scratch.file("nvim.log"),
            "NO_COLOR": "1",
        ]
    }

    /// Runs an editor to completion, with `extra` added to its environment; does what the test
    /// inside asks through the control directory: a file `restart` there restarts the daemon
    /// (then `restarted` appears), `daemon-stop` and `daemon-start` stop it and start it again
    /// (`daemon-stopped`, `daemon-started`), `daemon-pause` and `daemon-resume` send it SIGSTOP and
    /// SIGCONT (a hung daemon: it accepts and never answers), `server-stop` stops the server, so the daemon's
    /// refreshes fail (then `server-stopped`), and `server-start` starts it again (then `server-started`).
    func runEditor(
        _ executable: String, _ arguments: [String], environment extra: [String: String] = [:], timeout: TimeInterval = 600
    ) throws -> CommandResult {
        let requests: [(asked: String, done: String, act: () throws -> Void)] = [
            ("restart", "restarted", { self.daemon.stop(); try self.daemon.start() }),
            ("daemon-stop", "daemon-stopped", { _ = self.daemon.stop() }),
            ("daemon-start", "daemon-started", { try self.daemon.start() }),
            ("daemon-pause", "daemon-paused", { self.daemon.signal(SIGSTOP) }),
            ("daemon-resume", "daemon-resumed", { self.daemon.signal(SIGCONT) }),
            ("server-stop", "server-stopped", { self.server.stopServer() }),
            ("server-start", "server-started", { try self.server.restartServer() }),
        ]
        return try runSupervised(executable, arguments, environment: environment.merging(extra) { $1 }, timeout: timeout) {
            for request in requests where FileManager.default.fileExists(atPath: control + "/" + request.asked) {
                try FileManager.default.removeItem(atPath: control + "/" + request.asked)
                try request.act()
                // The editor waits for this file: not made, it would wait out the whole deadline.
                guard FileManager.default.createFile(atPath: control + "/" + request.done, contents: nil) else {
                    throw ServerProcessError(message: "cannot write \(control)/\(request.done)")
                }
            }
        }
    }

    func tearDown() {
        hungDaemon.signal(SIGCONT)
        hungDaemon.tearDown()
        daemon.tearDown()
        server.tearDown()
        scratch.remove()
    }

    /// A Unix socket file with nothing listening: connecting is refused, as after a daemon crash.
    static func makeStaleSocket(_ path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw ServerProcessError(message: "cannot bind \(path)") }
    }
}

/// The test's report of an editor run: the editor's own output, for when it fails.
func transcript(_ result: CommandResult) -> Comment {
    "exit \(result.status)\n--- stdout\n\(result.stdout)\n--- stderr\n\(result.stderr)"
}
