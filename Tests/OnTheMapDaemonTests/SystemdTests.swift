import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@Suite("systemd: socket activation, sd_notify, unit files", .ownThreads)
struct SystemdTests {
    @Test func socketActivationAndNotifications() throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-systemd")
        defer { home.remove() }
        let socketPath = home.file("activated.sock")
        let notify = try NotifySocketListener(path: home.file("notify.sock"))
        defer { notify.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        process.arguments = [
            "-l", socketPath, "-E", "NOTIFY_SOCKET", "-E", "WATCHDOG_USEC", "-E", "XDG_STATE_HOME", "-E", "XDG_CACHE_HOME",
            "-E", "XDG_CONFIG_HOME", BuiltProducts.path("onthemapd"), "--api-url", "http://127.0.0.1:9/v1",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["WATCHDOG_USEC"] = "400000"
        environment["XDG_STATE_HOME"] = home.file("state")
        environment["XDG_CACHE_HOME"] = home.file("cache")
        environment["XDG_CONFIG_HOME"] = home.file("config")
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.spawn()
        defer { if process.isAlive { kill(process.processIdentifier, SIGKILL) } }

        // Like systemd, systemd-socket-activate starts the daemon on the first connection, passing
        // the listening socket as fd 3; that connection is answered by the daemon.
        #expect(eventually { FileManager.default.fileExists(atPath: socketPath) })
        let connection = try RPCConnection(path: socketPath, timeout: .seconds(10))
        #expect(try connection.call("status").get()["loggedIn"] == .bool(false))
        #expect(notify.waitFor("READY=1"))
        #expect(notify.messages.contains { $0.contains("STATUS=logged out") })
        let readyIndex = try #require(notify.messages.firstIndex { $0.contains("READY=1") })
        #expect(!notify.messages[..<readyIndex].contains("WATCHDOG=1"), "watchdog pinged before READY")
        #expect(notify.waitFor("WATCHDOG=1"))
        let pings = notify.messages.filter { $0 == "WATCHDOG=1" }.count
        #expect(eventually(timeout: .seconds(3)) { notify.messages.filter { $0 == "WATCHDOG=1" }.count >= pings + 2 })  // every 200 ms

        kill(process.processIdentifier, SIGHUP)
        #expect(notify.waitFor("RELOADING=1"))
        #expect(eventually { notify.messages.filter { $0.contains("READY=1") }.count >= 2 })

        kill(process.processIdentifier, SIGTERM)
        #expect(notify.waitFor("STOPPING=1"))
        let deadline = Date().addingTimeInterval(5)
        let status = process.waitForExit(timeout: deadline.timeIntervalSinceNow)
        #expect(status != nil, "did not exit within 5 s of SIGTERM")
        #expect(status == 0)
        // The socket belongs to systemd: the daemon leaves it in place.
        #expect(FileManager.default.fileExists(atPath: socketPath))
    }

    @Test func unitFilesVerify() throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-units")
        defer { home.remove() }
        let units = home.file("units")
        let runtime = home.file("runtime")
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../systemd").standardized
        let service = try String(contentsOf: source.appendingPathComponent("onthemapd.service"), encoding: .utf8)
        let socket = try String(contentsOf: source.appendingPathComponent("onthemapd.socket"), encoding: .utf8)
        #expect(service.contains("Type=notify"))
        #expect(service.contains("SWIFT_BACKTRACE=enable=no"))
        #expect(socket.contains("ListenStream=%t/onthemap/onthemapd.sock"))
        #expect(socket.contains("SocketMode=0600"))
        // verify checks that ExecStart exists: point it at the binary under test.
        try service.replacingOccurrences(of: "%h/.local/bin/onthemapd", with: BuiltProducts.path("onthemapd"))
            .write(toFile: units + "/onthemapd.service", atomically: true, encoding: .utf8)
        try socket.write(toFile: units + "/onthemapd.socket", atomically: true, encoding: .utf8)
        let result = try runCommand(
            "/usr/bin/systemd-analyze", ["--user", "verify", units + "/onthemapd.socket", units + "/onthemapd.service"],
            environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func secondDaemonExitsAndStaleSocketIsReplaced() throws {
        let first = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
        defer { first.tearDown() }
        let second = try runCommand(
            BuiltProducts.path("onthemapd"), ["--socket", first.socketPath, "--api-url", "http://127.0.0.1:9/v1"])
        #expect(second.status != 0)
        // It names the command that stops the one running: that one was started by hand.
        #expect(second.stderr.contains("another onthemapd is already serving \(first.socketPath); stop it first (`kill \(first.pid)`)"), "\(second.stderr)")
        // The first one is unharmed.
        #expect(try RPCConnection(path: first.socketPath).call("status").get()["version"] != nil)

        // A daemon killed with SIGKILL leaves its socket file; the next one replaces it.
        first.signal(SIGKILL)
        #expect(eventually { !first.isRunning }, "the daemon is gone")
        #expect(FileManager.default.fileExists(atPath: first.socketPath))
        try first.start()
        #expect(try RPCConnection(path: first.socketPath).call("status").get()["version"] != nil)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to connect as another user (setpriv)"))
    func peersOfAnotherUserAreRefused() throws {
        let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
        defer { daemon.tearDown() }
        // Open the path to everyone, so only SO_PEERCRED stands between `nobody` and the daemon.
        chmod(daemon.home.path, 0o755)
        chmod(daemon.home.file("run"), 0o755)
        chmod(daemon.socketPath, 0o666)
        let script = #"printf '{"jsonrpc":"2.0","id":1,"method":"status"}\n' | socat -t 3 - UNIX-CONNECT:"# + daemon.socketPath
        let result = try runCommand("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script])
        #expect(!result.stdout.contains("result"), "another user got an answer: \(result.stdout)")
        #expect(eventually { daemon.log.contains("refused a client of another user") })
        #expect(daemon.log.contains("uid=65534"))
        // The owner is still served.
        #expect(try RPCConnection(path: daemon.socketPath).call("status").get()["version"] != nil)
    }
}
