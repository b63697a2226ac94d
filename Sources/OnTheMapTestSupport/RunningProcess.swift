import Foundation

/// A process left running while a test watches its output (e.g. `onthemap watch`).
public final class RunningProcess: @unchecked Sendable {
    private let process = Process()
    private let output = OutputCollector()

    /// Starts `executable`; `environment` entries are added to the test's own.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe()
        output.collect(from: stdout.fileHandleForReading)
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Lines printed on stdout so far.
    public var lines: [String] {
        output.text.split(separator: "\n").map(String.init)
    }

    /// Waits until some printed line satisfies `condition`, after the first `skipping` lines.
    public func waitForLine(after skipping: Int = 0, timeout: TimeInterval = 20, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines.dropFirst(skipping).contains(where: condition) { return true }
            usleep(20_000)
        }
        return false
    }

    /// SIGTERM, then SIGKILL after 2 s (a child may inherit a blocked SIGTERM from the test runner).
    public func stop() {
        terminate(process, timeout: 2)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
