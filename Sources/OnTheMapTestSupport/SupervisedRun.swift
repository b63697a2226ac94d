import Foundation

/// Runs an executable to completion like `runCommand`, but calls `tick` about every 50 ms while it
/// runs, so a test can act on what the child asks for (e.g. restart the daemon when an editor test
/// writes a file). The child is killed, and the run fails, after `timeout`.
public func runSupervised(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval,
    whileRunning tick: () throws -> Void = {}
) throws -> CommandResult {
    let output = OutputCollector()
    let errors = OutputCollector()
    let process = try Process.launch(executable, arguments, environment: environment, stdout: output, stderr: errors)
    let deadline = Date().addingTimeInterval(timeout)
    var exitStatus: Int32?
    while exitStatus == nil {
        // Asked of the kernel: see `Process.exitStatusIfExited`.
        exitStatus = process.exitStatusIfExited
        if exitStatus != nil { break }
        if Date() > deadline {
            terminate(process, timeout: 2)
            throw ServerProcessError(message: "\(executable) did not finish in \(Int(timeout)) s:\n\(output.text)\n\(errors.text)")
        }
        try tick()
        usleep(50_000)
    }
    // The reader threads finish at end of file, just after the exit (later if a descendant still
    // holds the output open: what it printed so far is what the run printed).
    output.waitForEndOfFile(timeout: 2)
    errors.waitForEndOfFile(timeout: 2)
    return CommandResult(status: exitStatus ?? -1, stdout: output.text, stderr: errors.text)
}

/// Finds programs on `$PATH`, for tests of optional tools (editors, browsers).
public enum Executables {
    /// The absolute path of `name` on `$PATH`, or nil when it is not installed.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
