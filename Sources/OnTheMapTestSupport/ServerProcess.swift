import Foundation

/// A real `onthemap-server serve` process on a free loopback port.
public final class ServerProcess: @unchecked Sendable {
    /// Base URL of the API, e.g. `http://127.0.0.1:41234/v1` (empty until the server listens).
    public var baseURL: String {
        urlLock.withLock {
            if url == nil, let found = output.text.firstMatch(of: /onthemap-server listening on (http\S+)/)?.1 {
                url = String(found)
            }
            return url ?? ""
        }
    }
    /// The database it serves: a SQLite file or a `postgres://` URL.
    public let databasePath: String
    /// The process; `ServerProcess+Signals` signals and awaits it.
    let process: Process
    private let output: OutputCollector
    private let urlLock = NSLock()
    private var url: String?  // guarded by `urlLock`

    private init(databasePath: String, process: Process, output: OutputCollector) {
        self.databasePath = databasePath
        self.process = process
        self.output = output
    }

    /// Starts the server on `databasePath` (a SQLite file or a `postgres://` URL; created if new:
    /// `--create`) and returns once it prints its URL; `environment` entries are added to the test's own
    /// (e.g. `NOTIFY_SOCKET`).
    public static func start(
        databasePath: String, port: Int = 0, arguments: [String] = [], environment: [String: String] = [:],
        timeout: TimeInterval = 30
    ) throws -> ServerProcess {
        let server = try spawn(databasePath: databasePath, port: port, arguments: arguments, environment: environment)
        try server.waitUntilListening(timeout: timeout)
        return server
    }

    /// Starts the server as `start` does, but returns at once: for a test that watches what it says
    /// before it listens (waiting for a database); `waitUntilListening` then waits for its URL.
    public static func spawn(
        databasePath: String, port: Int = 0, arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> ServerProcess {
        let output = OutputCollector()
        let process = try Process.launch(
            BuiltProducts.path("onthemap-server"),
            ["serve", "--create", "--database", databasePath, "--port", String(port), "--log-level", "warning"] + arguments,
            environment: environment, stdout: output, stderr: output)
        return ServerProcess(databasePath: databasePath, process: process, output: output)
    }

    /// Returns once the server prints its URL; stops it and throws if it exits or `timeout` (a
    /// deadline for a hung start, nothing more) passes first.
    public func waitUntilListening(timeout: TimeInterval = 30) throws {
        try process.waitUntilReady("onthemap-server", timeout: timeout, log: output) { !baseURL.isEmpty }
    }

    /// Everything the server printed so far (stdout and stderr).
    public var log: String { output.text }

    /// The port it listens on.
    public var port: Int {
        Int(baseURL.firstMatch(of: /:(\d+)\//)?.1 ?? "0") ?? 0
    }

    /// Sends SIGTERM and waits for the exit status (SIGKILL after `timeout`).
    @discardableResult
    public func stop(timeout: TimeInterval = 10) -> Int32 {
        terminate(process, timeout: timeout)
    }

    deinit {
        if process.isAlive { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Why a test process could not be started.
public struct ServerProcessError: Error, CustomStringConvertible {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// SIGTERM, then SIGKILL after `timeout`; returns the exit status.
@discardableResult
func terminate(_ process: Process, timeout: TimeInterval) -> Int32 {
    if process.isAlive { kill(process.processIdentifier, SIGTERM) }
    if let status = process.waitForExit(timeout: timeout) { return status }
    kill(process.processIdentifier, SIGKILL)
    return process.waitForExit() ?? -1
}
