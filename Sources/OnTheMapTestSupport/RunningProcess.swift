import Foundation

/// A process left running while a test watches its output (e.g. `onthemap watch`).
public final class RunningProcess: @unchecked Sendable {
    private let process: Process
    private let output = OutputCollector()

    /// Starts `executable` (its stderr thrown away); `environment` entries are added to the test's own.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process = try Process.launch(executable, arguments, environment: environment, stdout: output, stderr: nil)
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
    /// Its descendants go first: a program that runs commands (i3blocks) leaves them running when it
    /// is killed, and they keep its output pipe open. Returns once its output is read to the end.
    public func stop() {
        for descendant in Self.descendants(of: process.processIdentifier).reversed() { kill(descendant, SIGKILL) }
        terminate(process, timeout: 2)
        output.waitForEndOfFile(timeout: 2)
    }

    /// Every process below `pid`, parents before children, from /proc.
    static func descendants(of pid: Int32) -> [Int32] {
        var parents: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // "pid (comm) state ppid …": the name may hold spaces, so read after its closing paren.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
        }
        var found: [Int32] = []
        var frontier = [pid]
        while let next = frontier.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            found += children
            frontier += children
        }
        return found
    }

    deinit {
        if process.isAlive { kill(process.processIdentifier, SIGKILL) }
    }
}
