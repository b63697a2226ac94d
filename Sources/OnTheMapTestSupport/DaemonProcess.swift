import Foundation

/// A real `onthemapd` process with its own XDG directories and socket, pointed at an API URL.
public final class DaemonProcess: @unchecked Sendable {
    /// The directory holding the socket, state, cache and config.
    public let home: TemporaryDirectory
    public let socketPath: String
    public let apiURL: String
    public let arguments: [String]
    /// The program run: the built `onthemapd`, or a copy of it a test measures on its own.
    public let executable: String
    private var process: Process?
    private var output = OutputCollector()

    /// Starts the daemon and returns once its socket answers.
    public init(
        apiURL: String, arguments: [String] = [], home: TemporaryDirectory? = nil,
        executable: String = BuiltProducts.path("onthemapd")
    ) throws {
        self.home = try home ?? TemporaryDirectory(prefix: "onthemapd")
        socketPath = self.home.file("run/onthemapd.sock")
        self.apiURL = apiURL
        self.arguments = arguments
        self.executable = executable
        try start()
    }

    /// Variables added to `environment` at the next `start()` (e.g. `NOTIFY_SOCKET`).
    public var extraEnvironment: [String: String] = [:]

    /// The XDG environment the daemon runs with.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = home.file("state")
        environment["XDG_CACHE_HOME"] = home.file("cache")
        environment["XDG_CONFIG_HOME"] = home.file("config")
        environment["XDG_RUNTIME_DIR"] = home.file("runtime")
        environment["NOTIFY_SOCKET"] = nil
        // Not started by systemd, even when the tests are (a daemon systemd starts leaves no
        // SOCKET.how-to-start).
        environment["INVOCATION_ID"] = nil
        environment["LISTEN_FDS"] = nil
        environment["ONTHEMAP_SOCKET"] = nil
        environment.merge(extraEnvironment) { $1 }
        return environment
    }

    public var sessionFile: String { home.file("state/onthemap/session.json") }
    public var cacheFile: String { home.file("cache/onthemap/students.json") }

    /// Starts (or restarts) the process and waits for the socket.
    public func start(timeout: TimeInterval = 20) throws {
        let output = OutputCollector()
        self.output = output
        let process = try Process.launch(
            executable, ["--socket", socketPath, "--api-url", apiURL, "--log-level", "debug"] + arguments,
            environment: environment, inheritsEnvironment: false, stdout: output, stderr: output)
        self.process = process
        try process.waitUntilReady("onthemapd", timeout: timeout, log: output) { output.text.contains("listening") }
    }

    /// What the daemon logged so far.
    public var log: String { output.text }

    public var pid: Int32 { process?.processIdentifier ?? 0 }

    public var isRunning: Bool { process?.isAlive ?? false }

    /// Sends a signal.
    public func signal(_ signal: Int32) {
        if let process, process.isAlive { kill(process.processIdentifier, signal) }
    }

    /// SIGTERM, then waits for the exit status (SIGKILL after `timeout`).
    @discardableResult
    public func stop(timeout: TimeInterval = 10) -> Int32 {
        guard let process else { return -1 }
        return terminate(process, timeout: timeout)
    }

    /// Stops the daemon and removes its directory.
    public func tearDown() {
        stop()
        home.remove()
    }

    deinit {
        if let process, process.isAlive { kill(process.processIdentifier, SIGKILL) }
    }
}
