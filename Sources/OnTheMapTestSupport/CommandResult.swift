import Dispatch
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.spawn()
    let started = ContinuousClock.now
    // A child that exits without reading its input fails its test; the write must not kill the
    // whole test run with SIGPIPE (it did when a broken client binary was tested).
    _ = ignoringBrokenPipes
    if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    // Drain stderr on another thread while this one drains stdout, so neither pipe can fill and block.
    let errorBox = DataBox()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let status = process.waitForExit() ?? -1
    return CommandResult(
        status: status,
        stdout: String(decoding: outputData, as: UTF8.self),
        stderr: String(decoding: errorBox.data, as: UTF8.self),
        elapsed: ContinuousClock.now - started)
}

/// Writes to a closed pipe fail with EPIPE instead of raising SIGPIPE, for the whole test process.
private let ignoringBrokenPipes: Void = {
    signal(SIGPIPE, SIG_IGN)
}()

/// Bytes handed from a reader thread; the `DispatchGroup` wait orders the write before the read.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
