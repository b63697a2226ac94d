import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// A daemon that stops (refused start, failed bind, SIGTERM) exits with its own status, never a crash,
/// however busy the machine is.
@Suite("Stopping never crashes", .ownThreads)
struct StoppingTests {
    /// CPU hogs, one more than there are cores, for the duration of `body`.
    private func underLoad<T>(_ body: () throws -> T) throws -> T {
        let hogs = try (0...ProcessInfo.processInfo.activeProcessorCount).map { _ in
            let hog = Process()
            hog.executableURL = URL(fileURLWithPath: "/bin/sh")
            hog.arguments = ["-c", "while :; do :; done"]
            try hog.spawn()
            return hog
        }
        defer {
            for hog in hogs {
                kill(hog.processIdentifier, SIGKILL)  // a busy `sh` may have SIGTERM blocked (inherited mask)
                _ = hog.waitForExit()
            }
        }
        return try body()
    }

    @Test("A bind that fails after the services started ends in exit status 1, with the watchdog waiting")
    func failedBindExitsCleanly() throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-stop")
        defer { home.remove() }
        let notify = try NotifySocketListener(path: home.file("notify.sock"))
        defer { notify.close() }
        // Longer than a socket address holds: the directory is fine, the bind itself fails.
        let socket = home.file(String(repeating: "s", count: 120) + ".sock")
        let result = try runCommand(
            BuiltProducts.path("onthemapd"), ["--socket", socket, "--api-url", "http://127.0.0.1:9/v1"],
            environment: [
                "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000", "XDG_STATE_HOME": home.file("state"),
                "XDG_CACHE_HOME": home.file("cache"), "XDG_CONFIG_HOME": home.file("config"),
            ])
        #expect(result.status == 1, "exit status \(result.status); stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "stderr: \(result.stderr)")
        #expect(!notify.messages.contains("READY=1"))
    }

    @Test("Refused starts and SIGTERM keep their exit status on a machine with every core busy")
    func stoppingUnderLoad() throws {
        let first = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
        defer { first.tearDown() }
        try underLoad {
            for _ in 0..<8 {
                let second = try runCommand(
                    BuiltProducts.path("onthemapd"), ["--socket", first.socketPath, "--api-url", "http://127.0.0.1:9/v1"],
                    environment: first.environment)
                #expect(second.status == 1, "exit status \(second.status); stderr: \(second.stderr)")
                #expect(second.stderr.contains("already serving"))
            }
            for _ in 0..<3 {
                let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
                defer { daemon.home.remove() }
                #expect(try RPCConnection(path: daemon.socketPath).call("status").get()["version"] != nil)
                #expect(daemon.stop(timeout: 30) == 0, "log: \(daemon.log)")
            }
        }
        #expect(try RPCConnection(path: first.socketPath).call("status").get()["version"] != nil)
    }
}
