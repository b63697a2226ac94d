import Foundation
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

        // The demo's daemon stopped: the advice is the demo's own command.
        let pid = try #require(Int32(try String(contentsOfFile: run + "/daemon.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        var stopped = false
        for _ in 0..<200 where !stopped {
            stopped = kill(pid, 0) != 0
            usleep(50_000)
        }
        #expect(stopped)
        let status = try runCommand(
            BuiltProducts.path("onthemap"), ["status"], environment: ["ONTHEMAP_SOCKET": run + "/onthemapd.sock"])
        #expect(status.status == 2)
        #expect(status.stderr.contains("make demo`"), "\(status.stderr)")
        #expect(status.stderr.contains("ONTHEMAP_DEMO_PORT=\(port)"), "the port it ran on: \(status.stderr)")
        #expect(!status.stderr.contains("onthemapd --socket"), "\(status.stderr)")
    }

    @Test func withoutAUserManagerTheAdviceIsToRunItByHand() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("nope.sock")
        // No systemd user manager: no $XDG_RUNTIME_DIR/systemd/private.
        let runtime = directory.file("runtime")
        try FileManager.default.createDirectory(atPath: runtime + "/systemd", withIntermediateDirectories: true)
        let bare = try runCommand(
            BuiltProducts.path("onthemap"), ["status"], environment: ["ONTHEMAP_SOCKET": socket, "XDG_RUNTIME_DIR": runtime])
        #expect(bare.status == 2)
        #expect(bare.stderr.contains("onthemapd --socket \(socket)`"), "\(bare.stderr)")
        #expect(bare.stderr.contains("no systemd user manager here"), "\(bare.stderr)")
        #expect(!bare.stderr.contains("run `systemctl --user"), "\(bare.stderr)")
        #expect(bare.stderr.split(separator: "\n").count == 1)

        // A user manager listens on its private socket: then `systemctl --user` is the advice.
        let manager = try UnixListener(path: runtime + "/systemd/private")
        defer { manager.close() }
        let managed = try runCommand(
            BuiltProducts.path("onthemap"), ["status"], environment: ["ONTHEMAP_SOCKET": socket, "XDG_RUNTIME_DIR": runtime])
        #expect(managed.status == 2)
        #expect(managed.stderr.contains("systemctl --user start onthemapd.socket"), "\(managed.stderr)")
        #expect(!managed.stderr.contains("no systemd user manager"), "\(managed.stderr)")
    }
}

/// A bound, listening Unix socket, standing where systemd's user manager would listen.
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

    func close() { Foundation.close(fd) }
}
