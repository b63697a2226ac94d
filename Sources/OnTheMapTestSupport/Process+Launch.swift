import Foundation

extension Process {
    /// Starts `executable` (through `spawn()`'s gate) with its stdin on `stdin` or /dev/null, its
    /// stdout read into `stdout` and its stderr into `stderr` (nil: thrown away; the same collector
    /// as `stdout`: one log). `environment` entries are added to (or replace) the test process's
    /// own; with `inheritsEnvironment` false they are the whole of it.
    static func launch(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], inheritsEnvironment: Bool = true,
        stdin: Pipe? = nil, stdout: OutputCollector, stderr: OutputCollector?
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = inheritsEnvironment ? ProcessInfo.processInfo.environment.merging(environment) { $1 } : environment
        process.standardInput = stdin ?? FileHandle.nullDevice
        process.standardOutput = pipe(into: stdout)
        process.standardError = stderr.map(pipe(into:)) ?? FileHandle.nullDevice
        try process.spawn()
        return process
    }

    /// A pipe whose reading end `collector` reads from now on.
    private static func pipe(into collector: OutputCollector) -> Pipe {
        let pipe = Pipe()
        collector.collect(from: pipe.fileHandleForReading)
        return pipe
    }

    /// Returns once `isReady()`; terminates the process and throws "`name` did not start" with what
    /// it logged if it exits or `timeout` (a deadline for a hung start, nothing more) passes first.
    func waitUntilReady(_ name: String, timeout: TimeInterval, log: OutputCollector, _ isReady: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if isReady() { return }
            if !isAlive { break }
            usleep(5_000)
        }
        terminate()
        throw ServerProcessError(message: "\(name) did not start:\n\(log.text)")
    }
}
