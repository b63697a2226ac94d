import Foundation
@testable import OnTheMapClient
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// What the client advises when nothing answers, and `make demo` run again (#31.1, .3, .13): the
/// demo's daemon is started again with `make demo`, not with `onthemapd --socket …` (Udacity's API,
/// another state folder); without a systemd user manager the advice does not send anyone to
/// `systemctl --user`; and a second `make demo` works although the demo login is rate-limited, as
/// the daemon is still logged in.
@Suite("Starting the daemon", .ownThreads)
struct StartAdviceTests {
    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/demo.sh").standardized.path

    @Test func theDemoRunsTwiceInARowAndItsAdviceSaysMakeDemo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = directory.file("run")
        let port = try FreePort.pick()
        let environment = ["ONTHEMAP_DEMO_PORT": String(port), "ONTHEMAP_DEMO_BIN": BuiltProducts.directory, "ONTHEMAP_DEMO_DIR": run]
        defer {
            for name in ["daemon", "server"] {
                if let pid = try? String(contentsOfFile: run + "/\(name).pid", encoding: .utf8), let number = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    kill(number, SIGTERM)
                }
            }
        }
        let first = try runCommand("/bin/bash", [Self.demo], environment: environment)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("logged in as Ada Lovelace") || first.stderr.contains("logged in as Ada Lovelace"), "\(first.stdout)\(first.stderr)")
        // Its closing words name the folder it was given, and how to stop what runs there.
        #expect(first.stdout.contains("(log \(run)/server.log)"), "\(first.stdout)")
        #expect(first.stdout.contains("Stop everything:  ONTHEMAP_DEMO_DIR=\(run) make demo-stop"), "\(first.stdout)")

        // Five wrong passwords: the demo account is locked for a minute.
        for _ in 0..<6 {
            _ = try runCommand(
                "/usr/bin/curl", ["-s", "-o", "/dev/null", "-X", "POST", "-H", "Content-Type: application/json", "--data",
                                  #"{"udacity":{"username":"demo@onthemap.example","password":"wrong"}}"#,
                                  "http://127.0.0.1:\(port)/v1/session"])
        }
        let locked = try runCommand(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Content-Type: application/json",
                              "--data", #"{"udacity":{"username":"demo@onthemap.example","password":"onthemap-demo"}}"#,
                              "http://127.0.0.1:\(port)/v1/session"])
        #expect(locked.stdout == "429", "the demo login is rate-limited now")

        let second = try runCommand("/bin/bash", [Self.demo], environment: environment)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains("already logged in"), "\(second.stdout)")
        #expect(second.stdout.contains("students: "), "status shown: \(second.stdout)")

        // The daemon killed and the demo run again at once: the daemon still stopping is waited for
        // and started again (it said "already running", then the login failed).
        let stopping = try #require(Int32(try String(contentsOfFile: run + "/daemon.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(stopping, SIGTERM)
        let third = try runCommand("/bin/bash", [Self.demo], environment: environment)
        #expect(third.status == 0, "\(third.stdout)\(third.stderr)")
        #expect(third.stdout.contains("starting onthemapd"), "\(third.stdout)")
        #expect(third.stdout.contains("students: "), "status shown: \(third.stdout)")

        // Stopped as its closing words say: the advice is then the demo's own command.
        let pids = try ["daemon", "server"].map { name in
            try #require(Int32(try String(contentsOfFile: run + "/\(name).pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let root = URL(fileURLWithPath: Self.demo).deletingLastPathComponent().deletingLastPathComponent().path
        let stop = try runCommand("/usr/bin/make", ["-s", "-C", root, "demo-stop"], environment: ["ONTHEMAP_DEMO_DIR": run])
        #expect(stop.status == 0, "\(stop.stdout)\(stop.stderr)")
        var stopped = false
        for _ in 0..<600 where !stopped {
            stopped = pids.allSatisfy { kill($0, 0) != 0 }
            usleep(50_000)
        }
        #expect(stopped, "make demo-stop stopped the demo's daemon and server")
        let status = try runCommand(
            BuiltProducts.path("onthemap"), ["status"], environment: ["ONTHEMAP_SOCKET": run + "/onthemapd.sock"])
        #expect(status.status == 2)
        #expect(status.stderr.contains("make demo`"), "\(status.stderr)")
        #expect(status.stderr.contains("ONTHEMAP_DEMO_PORT=\(port)"), "the port it ran on: \(status.stderr)")
        #expect(!status.stderr.contains("onthemapd --socket"), "\(status.stderr)")
    }

    /// The default paths tried: what to do comes first, then each path with its reason. An editor's
    /// list line is cut at the window's edge, and three paths before it pushed the advice out of
    /// sight.
    @Test func theAdviceComesBeforeThePathsTried() throws {
        let paths = ["/run/user/1000/onthemap/onthemapd.sock", "/tmp/onthemap-1000/onthemapd.sock"]
        let error = ClientError.cannotConnect(paths.map { ClientError.Attempt(path: $0, reason: "No such file or directory") })
        let advice = try #require(error.advice)
        #expect(advice.hasPrefix("Start "), "\(advice)")
        #expect(
            error.message
                == "cannot reach onthemapd. " + advice + " Tried /run/user/1000/onthemap/onthemapd.sock (No such file or directory); "
                + "/tmp/onthemap-1000/onthemapd.sock (No such file or directory).")
    }

    @Test func withoutAUserManagerTheAdviceIsToRunItByHand() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("nope.sock")
        let home = try UserManagerHome(in: directory)
        let environment = ["ONTHEMAP_SOCKET": socket].merging(home.environment) { $1 }
        let bare = try runCommand(BuiltProducts.path("onthemap"), ["status"], environment: environment)
        #expect(bare.status == 2)
        #expect(bare.stderr.contains("onthemapd --socket \(socket) &`"), "\(bare.stderr)")
        #expect(bare.stderr.contains("no systemd user manager here"), "\(bare.stderr)")
        #expect(!bare.stderr.contains("run `systemctl --user"), "\(bare.stderr)")
        #expect(bare.stderr.split(separator: "\n").count == 1)

        // A user manager listens on its private socket, but onthemapd.socket is not installed for it:
        // `systemctl --user start onthemapd.socket` would fail.
        let manager = try home.startManager()
        defer { manager.close() }
        let installedSystemWide = StartAdviceTests.systemUnitDirectories.contains {
            FileManager.default.fileExists(atPath: $0 + "/onthemapd.socket")
        }
        if !installedSystemWide {
            let noUnit = try runCommand(BuiltProducts.path("onthemap"), ["status"], environment: environment)
            #expect(noUnit.status == 2)
            #expect(noUnit.stderr.contains("onthemapd.socket is not installed"), "\(noUnit.stderr)")
            #expect(!noUnit.stderr.contains("systemctl --user start"), "\(noUnit.stderr)")
        }
        // Installed (here in the user's own unit folder): then `systemctl --user` is the advice.
        try home.installSocketUnit()
        let managed = try runCommand(BuiltProducts.path("onthemap"), ["status"], environment: environment)
        #expect(managed.status == 2)
        #expect(managed.stderr.contains("systemctl --user start onthemapd.socket"), "\(managed.stderr)")
        #expect(!managed.stderr.contains("no systemd user manager"), "\(managed.stderr)")
    }

    /// A daemon that fails (an internal error) is quoted, and the message says where its log is: the
    /// journal when systemd's user manager runs the installed unit, else the standard error of
    /// whatever started it by hand. The daemon here answers every request as onthemapd answers one
    /// that failed inside it.
    @Test func aFailingDaemonSaysWhereItsLogIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("failing.sock")
        let home = try UserManagerHome(in: directory)
        let daemon = try UnixListener(path: socket)
        defer { daemon.close() }
        daemon.answerEveryLine { id in
            #"{"error":{"code":-32603,"message":"Internal error: the cache file could not be read"},"id":\#(id),"jsonrpc":"2.0"}"#
        }
        let environment = ["ONTHEMAP_SOCKET": socket, "NO_COLOR": "1"].merging(home.environment) { $1 }
        let failed = "onthemapd failed (the cache file could not be read); its log says more: "

        let byHand = try runCommand(BuiltProducts.path("onthemap"), ["status"], environment: environment)
        #expect(byHand.status == 1, "\(byHand.stderr)")
        #expect(byHand.stderr.contains(failed + "the standard error of the onthemapd you started"), "\(byHand.stderr)")
        #expect(!byHand.stderr.contains("journalctl"), "\(byHand.stderr)")

        let manager = try home.startManager()
        defer { manager.close() }
        try home.installSocketUnit()
        let managed = try runCommand(BuiltProducts.path("onthemap"), ["status"], environment: environment)
        #expect(managed.status == 1, "\(managed.stderr)")
        #expect(managed.stderr.contains(failed + "`journalctl --user -u onthemapd`"), "\(managed.stderr)")
    }

    /// A socket path that names a file of another kind (`--socket ~/.bashrc`): the daemon refuses it
    /// and leaves the file as it was (it was deleted), and the client's advice is to name the right
    /// socket, not to start a daemon there.
    @Test func aFileThatIsNoSocketIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("notes.txt")
        try "precious\n".write(toFile: file, atomically: true, encoding: .utf8)
        let client = try runCommand(BuiltProducts.path("onthemap"), ["--socket", file, "status"])
        #expect(client.status == 2)
        #expect(client.stderr.contains("\(file) is not onthemapd's socket"), "\(client.stderr)")
        #expect(!client.stderr.contains("onthemapd --socket"), "\(client.stderr)")

        let daemon = try runCommand(BuiltProducts.path("onthemapd"), ["--socket", file, "--api-url", "http://127.0.0.1:9/v1"])
        #expect(daemon.status != 0)
        #expect(daemon.stderr.contains("\(file) is not a socket"), "\(daemon.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: file + ".how-to-start"), "a refused start leaves no advice beside it")
    }

    /// Where systemd finds a unit installed for every user (systemd.unit(5)).
    static let systemUnitDirectories = [
        "/etc/systemd/user", "/usr/local/share/systemd/user", "/usr/share/systemd/user", "/usr/local/lib/systemd/user",
        "/usr/lib/systemd/user", "/lib/systemd/user",
    ]

    /// A daemon started by hand leaves its command line beside its socket (its `--api-url` in it, no
    /// secret), so the advice once it is gone, stopped or crashed, starts the same daemon again: in
    /// `onthemap status`'s one line, and in the bar's tooltip. One systemd starts takes it away.
    @Test func aDaemonStartedByHandLeavesHowToStartItAgain() throws {
        let server = try ServerFixture()
        defer { server.tearDown() }
        let apiURL = server.baseURL.replacingOccurrences(of: "http://", with: "http://ada:secret@")
        let daemon = try DaemonProcess(apiURL: apiURL)
        defer { daemon.tearDown() }
        let hint = daemon.socketPath + ".how-to-start"
        let line = try String(contentsOfFile: hint, encoding: .utf8)
        #expect(line.hasSuffix("\n") && line.split(separator: "\n").count == 1, "\(line)")
        #expect(line.contains(BuiltProducts.path("onthemapd") + " --socket " + daemon.socketPath + " --api-url " + server.baseURL), "\(line)")
        #expect(!line.contains("secret"), "no password in the file: \(line)")
        // Nor in what clients show of the API.
        let client = ["ONTHEMAP_SOCKET": daemon.socketPath]
        let shown = try runCommand(BuiltProducts.path("onthemap"), ["status", "--json"], environment: client)
        #expect(shown.stdout.contains("\"apiURL\":\"\(server.baseURL)\"") && !shown.stdout.contains("secret"), "\(shown.stdout)")
        // Nor in what it says when the API cannot be reached: the error, and the status's last error.
        try server.seedDemo(count: 10)
        let login = try runCommand(
            BuiltProducts.path("onthemap"), ["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n",
            environment: client)
        #expect(login.status == 0, "\(login.stderr)")
        server.stopServer()
        let refresh = try runCommand(BuiltProducts.path("onthemap"), ["refresh"], environment: client)
        #expect(refresh.status != 0 && refresh.stderr.contains("reach the OnTheMap API at \(server.baseURL)")
                && !refresh.stderr.contains("secret"), "\(refresh.stderr)")
        let stale = try runCommand(BuiltProducts.path("onthemap"), ["status", "--json"], environment: client)
        #expect(stale.stdout.contains("\"lastError\":\"Cannot reach the OnTheMap API at \(server.baseURL)") && !stale.stdout.contains("secret"),
                "\(stale.stdout)")
        // Where its session is: started again without it, it would come back logged out.
        #expect(line.contains("XDG_STATE_HOME=" + daemon.home.file("state") + " "), "\(line)")
        #expect((try FileManager.default.attributesOfItem(atPath: hint)[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        // Stopped (Ctrl-C, SIGTERM): the word stays, and is the advice.
        #expect(daemon.stop() == 0)
        let environment = ["ONTHEMAP_SOCKET": daemon.socketPath, "NO_COLOR": "1"]
        let status = try runCommand(BuiltProducts.path("onthemap"), ["status"], environment: environment)
        #expect(status.status == 2)
        let said = status.stderr.split(separator: "\n")
        #expect(said.count == 1, "one line: \(status.stderr)")
        // What to do first, then the path tried: a line cut at a window's edge keeps the advice.
        #expect(said.first?.hasPrefix("onthemap: cannot reach onthemapd. Start it again as it was started: `") == true, "\(status.stderr)")
        #expect(said.first?.contains("`. Tried \(daemon.socketPath) (") == true, "\(status.stderr)")
        #expect(status.stderr.contains("--api-url \(server.baseURL) "), "the --api-url in use: \(status.stderr)")
        #expect(!status.stderr.contains("onthemapd &"), "\(status.stderr)")
        // The bar's tooltip gives the same advice.
        let bar = try runCommand(BuiltProducts.path("onthemap"), ["status", "--format", "waybar"], environment: environment)
        #expect(bar.status == 0)
        let tooltip = try #require(try JSONDecoder().decode(WireJSON.self, from: Data(bar.stdout.utf8))["tooltip"]?.stringValue)
        let advice = try #require(status.stderr.firstRange(of: "Start it again").map { start in
            String(status.stderr[start.lowerBound...].prefix { $0 != "\n" }.split(separator: " Tried ").first ?? "")
        })
        #expect(tooltip == "onthemapd is not running. " + advice, "\(tooltip)")

        // Gone without stopping (a crash, kill -9): the word stays too.
        try daemon.start()
        daemon.signal(SIGKILL)
        #expect(eventually { !daemon.isRunning })
        #expect(try String(contentsOfFile: hint, encoding: .utf8) == line)

        // Started by systemd: systemd starts it again, so the word of a start by hand goes.
        daemon.extraEnvironment["INVOCATION_ID"] = "0123456789abcdef"
        try daemon.start()
        #expect(!FileManager.default.fileExists(atPath: hint), "a systemd start takes the word away")
        #expect(daemon.stop() == 0)
    }
}

/// A bound, listening Unix socket, standing where systemd's user manager would listen.
/// A user's runtime and config folders as systemd's user manager would see them: at first no
/// manager (no `$XDG_RUNTIME_DIR/systemd/private`) and no unit installed.
private struct UserManagerHome {
    let runtime: String
    let config: String

    init(in directory: TemporaryDirectory) throws {
        runtime = directory.file("runtime")
        config = directory.file("config")
        try FileManager.default.createDirectory(atPath: runtime + "/systemd", withIntermediateDirectories: true)
    }

    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": config] }

    /// A user manager listening on its private socket, until the listener is closed.
    func startManager() throws -> UnixListener { try UnixListener(path: runtime + "/systemd/private") }

    /// onthemapd.socket installed in the user's own unit folder.
    func installSocketUnit() throws {
        try FileManager.default.createDirectory(atPath: config + "/systemd/user", withIntermediateDirectories: true)
        try "[Socket]\n".write(toFile: config + "/systemd/user/onthemapd.socket", atomically: true, encoding: .utf8)
    }
}

private final class UnixListener {
    private let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: path.utf8.prefix(raw.count - 1)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// Answers each line read on each connection, on a thread of its own, with `reply(id)`, `id`
    /// being the request's id as JSON text; until `close()`.
    func answerEveryLine(_ reply: @escaping @Sendable (String) -> String) {
        let fd = self.fd
        Thread.detachNewThread {
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }
                var pending = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while case let count = read(connection, &buffer, buffer.count), count > 0 {
                    pending += buffer.prefix(count)
                    while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = Data(pending[..<end])
                        pending.removeSubrange(...end)
                        let request = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
                        let id = request?["id"].map { "\($0)" } ?? "null"
                        let answer = Array((reply(id) + "\n").utf8)
                        _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                    }
                }
                Foundation.close(connection)
            }
        }
    }

    func close() {
        // shutdown first: a thread blocked in accept(2) on it returns.
        shutdown(fd, Int32(SHUT_RDWR))
        Foundation.close(fd)
    }
}
