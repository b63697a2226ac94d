import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// Nobody else can sit on the socket: the daemon binds only in a directory of its own that others
/// cannot write, and the client talks only to a daemon of its own user (or root).
@Suite("The socket belongs to its user", .ownThreads)
struct SocketSecurityTests {
    /// Runs `onthemapd` once with `--socket path` and returns how it ended.
    private func runDaemon(socket path: String, home: TemporaryDirectory) throws -> CommandResult {
        try runCommand(
            BuiltProducts.path("onthemapd"), ["--socket", path, "--api-url", "http://127.0.0.1:9/v1"],
            environment: ["XDG_STATE_HOME": home.file("state"), "XDG_CACHE_HOME": home.file("cache"), "XDG_CONFIG_HOME": home.file("config")])
    }

    @Test("A socket directory that others can write is refused, with the reason, and nothing is bound")
    func worldWritableDirectoryIsRefused() throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-dir")
        defer { home.remove() }
        let directory = home.file("shared")
        mkdir(directory, 0o777)
        chmod(directory, 0o777)  // mkdir applies the umask
        let result = try runDaemon(socket: directory + "/onthemapd.sock", home: home)
        #expect(result.status != 0)
        #expect(result.stderr.contains("can be written by others"), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/onthemapd.sock"))
    }

    @Test("A symbolic link in place of the socket directory is refused")
    func symlinkedDirectoryIsRefused() throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-dir")
        defer { home.remove() }
        mkdir(home.file("real"), 0o700)
        symlink(home.file("real"), home.file("link"))
        let result = try runDaemon(socket: home.file("link/onthemapd.sock"), home: home)
        #expect(result.status != 0)
        #expect(result.stderr.contains("is not a directory"), "stderr: \(result.stderr)")
    }

    @Test(
        "A socket directory another user owns is refused (the /tmp/onthemap-$UID squatting attack)",
        .enabled(if: getuid() == 0, "needs root to give the directory to another user")
    )
    func directoryOfAnotherUserIsRefused() throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-dir")
        defer { home.remove() }
        let directory = home.file("squatted")
        mkdir(directory, 0o700)
        chown(directory, 65534, 65534)
        let result = try runDaemon(socket: directory + "/onthemapd.sock", home: home)
        #expect(result.status != 0)
        #expect(result.stderr.contains("belongs to uid 65534"), "stderr: \(result.stderr)")
    }

    @Test(
        "The client refuses a socket served by another user before sending a byte",
        .enabled(if: getuid() == 0, "needs root to listen as another user")
    )
    func clientRefusesAnotherUsersSocket() throws {
        let home = try TemporaryDirectory(prefix: "onthemap-impostor")
        defer { home.remove() }
        chmod(home.path, 0o777)
        let socket = home.file("onthemapd.sock")
        let received = home.file("received")
        // The impostor: `nobody` listening on the path, keeping whatever a client sends.
        let impostor = Process()
        impostor.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        impostor.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
            "exec socat -u UNIX-LISTEN:\(socket) CREATE:\(received)",
        ]
        try impostor.spawn()
        defer { impostor.terminate() }
        #expect(eventually { FileManager.default.fileExists(atPath: socket) })

        let result = try runCommand(
            BuiltProducts.path("onthemap"), ["login", "--username", "ada@example.com", "--password-stdin"],
            stdin: "secret-password\n", environment: ["ONTHEMAP_SOCKET": socket])
        #expect(result.status == 2)
        #expect(result.stderr.contains("served by uid 65534"), "stderr: \(result.stderr)")
        // The impostor got the connection and then nothing: it saw no request, let alone a password.
        #expect(eventually { !impostor.isAlive })
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: received))) ?? Data()
        #expect(bytes.isEmpty, "the impostor received \(bytes.count) bytes")
    }

    @Test(
        "A client of another user is told the daemon serves only its own, then the connection closes",
        .enabled(if: getuid() == 0, "needs root to run a client as another user")
    )
    func anotherUsersClientIsToldWhy() throws {
        let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
        defer { daemon.tearDown() }
        // Opened up by hand after the start, as a careless operator might: others can reach the socket.
        // Only the test's own folders (the daemon's home and the socket's folder in it), never above.
        let socketFolder = URL(fileURLWithPath: daemon.socketPath).deletingLastPathComponent().path
        for folder in [daemon.home.path, socketFolder] { chmod(folder, 0o755) }
        chmod(daemon.socketPath, 0o666)
        // Every time: the daemon answers and closes at once, and a client whose request went out after
        // the close still reads the answer (it was told "the connection was closed" half the time).
        for _ in 0..<12 {
            let result = try runAsNobody(["status", "--socket", daemon.socketPath])
            // As for its 0600 socket, which this user may not open: whose it is, and how to use your own.
            #expect(result.status == 2)
            #expect(
                result.stderr.contains("onthemap: cannot use \(daemon.socketPath): the socket belongs to another user (uid 0), so its onthemapd is not yours. To use your own, leave out --socket"),
                "stderr: \(result.stderr)")
            #expect(!result.stderr.contains("Start"), "no daemon to start: \(result.stderr)")
            #expect(!result.stderr.contains("closed"), "stderr: \(result.stderr)")
        }
        #expect(eventually { daemon.log.contains("refused a client of another user") })
        // A client that writes its request once the answer is there (Emacs does) still can: the daemon
        // ends only its side, so the write is taken and the client reads the end. A whole close failed
        // the write (EPIPE), and `emacs --batch` died of the SIGPIPE.
        let late = try runCommand(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", Self.writesAfterTheAnswer, daemon.socketPath])
        #expect(late.stdout.hasPrefix(#"{"error":{"code":-32010"#), "\(late.stdout) \(late.stderr)")
        #expect(late.stdout.hasSuffix("\nsent\nthen the end\n"), "\(late.stdout) \(late.stderr)")

        // The bars: the daemon is running and refused this user; "not running" contradicted itself.
        let bar = try runAsNobody(["status", "--format", "waybar", "--socket", daemon.socketPath])
        #expect(bar.status == 0, "\(bar.stderr)")
        let line = try waybar(bar.stdout)
        #expect(line["class"] == "refused" && line["text"] == "📍 refused", "\(bar.stdout)")
        #expect(line["tooltip"]?.hasPrefix("refused: the socket belongs to another user (uid 0)") == true, "\(bar.stdout)")
        #expect(!bar.stdout.contains("not running"), "\(bar.stdout)")
        let polybar = try runAsNobody(["status", "--format", "polybar", "--socket", daemon.socketPath])
        #expect(polybar.stdout == "%{F#f38ba8}📍 refused%{F-}\n", "\(polybar.stdout)")
        let json = try runAsNobody(["status", "--format", "json", "--socket", daemon.socketPath])
        #expect(json.stdout.contains("\"refused\":true") && json.stdout.contains("belongs to another user (uid 0)"), "\(json.stdout)")
        // `watch` shows it too, and goes on asking (it ended with the error).
        let watch = try RunningProcess(
            "/usr/bin/setpriv", Self.asNobody + ["watch", "--format", "waybar", "--socket", daemon.socketPath],
            environment: ["HOME": "/tmp"])
        defer { watch.stop() }
        #expect(watch.waitForLine { $0.contains(#""class":"refused""#) && $0.contains("belongs to another user (uid 0)") }, "\(watch.lines)")
        // It did not end there: it asks again, now and then (each time refused anew).
        func refusals() -> Int { daemon.log.components(separatedBy: "refused a client of another user").count - 1 }
        let seen = refusals()
        #expect(eventually { refusals() >= seen + 2 }, "\(watch.lines)")
    }

    /// A client that reads the daemon's first line, then sends a request, then reads on: prints the
    /// line, "sent" (or why the write failed), and whether the connection then ended.
    private static let writesAfterTheAnswer = #"""
        socket, sys = __import__("socket"), __import__("sys")
        s = socket.socket(socket.AF_UNIX)
        s.connect(sys.argv[1])
        line = b""
        while not line.endswith(b"\n"):
            chunk = s.recv(4096)
            if not chunk: break
            line += chunk
        print(line.decode().strip())
        try:
            s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status"}\n')
            print("sent")
        except OSError as error:
            print("the write failed:", error.strerror)
        print("then the end" if s.recv(4096) == b"" else "then more")
        """#

    /// `setpriv`'s arguments that run the client as `nobody`; its own arguments follow.
    private static var asNobody: [String] {
        ["--reuid=65534", "--regid=65534", "--clear-groups", BuiltProducts.path("onthemap")]
    }

    /// `onthemap ARGUMENTS` as `nobody`, with `environment`.
    private func runAsNobody(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try runCommand("/usr/bin/setpriv", Self.asNobody + arguments, environment: ["HOME": "/tmp"].merging(environment) { $1 })
    }

    /// The waybar line `status --format waybar` printed, read.
    private func waybar(_ line: String) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        return object.compactMapValues { $0 as? String }
    }

    @Test(
        "Another user's socket (0600, theirs) is named as theirs, with how to use your own: no advice to start one there",
        .enabled(if: getuid() == 0, "needs root to run a client as another user")
    )
    func anotherUsersSocketIsNotOneToStart() throws {
        let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
        defer { daemon.tearDown() }
        // Folders others may pass through, not list; the socket as the daemon made it (0600, root's).
        // Only the test's own folders (the daemon's home and the socket's folder in it), never above.
        let socketFolder = URL(fileURLWithPath: daemon.socketPath).deletingLastPathComponent().path
        for folder in [daemon.home.path, socketFolder] { chmod(folder, 0o711) }
        let path = daemon.socketPath
        let theirs = "onthemap: cannot use \(path): the socket belongs to another user (uid 0), so its onthemapd is not yours. "

        let named = try runAsNobody(["status"], environment: ["ONTHEMAP_SOCKET": path])
        #expect(named.status == 2, "\(named.stderr)")
        #expect(named.stderr == theirs + "To use your own, unset ONTHEMAP_SOCKET, or set it to your own daemon's socket.\n", "\(named.stderr)")
        let flag = try runAsNobody(["status", "--socket", path])
        #expect(flag.status == 2, "\(flag.stderr)")
        #expect(flag.stderr == theirs + "To use your own, leave out --socket, or give it your own daemon's socket.\n", "\(flag.stderr)")
        for result in [named, flag] { #expect(!result.stderr.contains("Start") && !result.stderr.contains("onthemapd --socket"), "\(result.stderr)") }

        // The bars: refused, in red, not "not running".
        let bar = try runAsNobody(["status", "--format", "waybar"], environment: ["ONTHEMAP_SOCKET": path])
        #expect(bar.status == 0, "\(bar.stderr)")
        let line = try waybar(bar.stdout)
        #expect(line["class"] == "refused" && line["text"] == "📍 refused", "\(bar.stdout)")
        #expect(
            line["tooltip"] == "refused: the socket belongs to another user (uid 0). To use your own, unset ONTHEMAP_SOCKET, or set it to your own daemon's socket.",
            "\(bar.stdout)")
        let i3blocks = try runAsNobody(["status", "--format", "i3blocks"], environment: ["ONTHEMAP_SOCKET": path])
        #expect(i3blocks.stdout == "📍 refused\n📍 refused\n#f38ba8\n", "\(i3blocks.stdout)")
        // And the daemon was never reached.
        #expect(!daemon.log.contains("refused a client of another user"), "\(daemon.log)")
    }

    @Test("The client tries each default path in turn and names every one it tried")
    func clientTriesTheDefaultPaths() throws {
        let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
        defer { daemon.tearDown() }
        let missing = daemon.home.file("nowhere/onthemapd.sock")
        let connection = try RPCConnection.firstAnswering([missing, daemon.socketPath])
        #expect(try connection.call("status").get()["version"] != nil)

        // Nothing anywhere: cron and `env -i` have no XDG_RUNTIME_DIR, and the message says where it looked.
        let result = try runCommand(
            "/usr/bin/env", ["-i", "HOME=/nonexistent", BuiltProducts.path("onthemap"), "status"])
        #expect(result.status == 2)
        let uid = getuid()
        #expect(result.stderr.contains("/run/user/\(uid)/onthemap/onthemapd.sock"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("/tmp/onthemap-\(uid)/onthemapd.sock"), "stderr: \(result.stderr)")
    }
}
