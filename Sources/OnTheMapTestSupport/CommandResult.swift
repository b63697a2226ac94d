import Foundation

/// What a finished process printed and how it exited.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// From the start of the process to its exit: not the wait for a launch slot
    /// (`ProcessLaunches`), which a timing check must not count.
    public var elapsed: Duration = .zero
}

/// Runs an executable to completion, feeding `stdin`, and captures its output.
/// `environment` entries are added to (or replace) the test process's own.
public func runCommand(
    _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]
) throws -> CommandResult {
    let input = Pipe()
    let outputReader = OutputCollector()
    let errorReader = OutputCollector()
    let process = try Process.launch(
        executable, arguments, environment: environment, stdin: input, stdout: outputReader, stderr: errorReader)
    let started = ContinuousClock.now
    // A child that exits without reading its input fails its test; the write must not kill the
    // whole test run with SIGPIPE (it did when a broken client binary was tested).
    _ = ignoringBrokenPipes
    if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    // Both pipes drained at once, so neither can fill and block the child.
    outputReader.waitForEndOfFile()
    errorReader.waitForEndOfFile()
    let status = process.waitForExit() ?? -1
    return CommandResult(
        status: status,
        stdout: outputReader.text,
        stderr: errorReader.text,
        elapsed: ContinuousClock.now - started)
}

/// Writes to a closed pipe fail with EPIPE instead of raising SIGPIPE, for the whole test process.
private let ignoringBrokenPipes: Void = {
    signal(SIGPIPE, SIG_IGN)
}()
