import Foundation
import OnTheMapTestSupport
import Testing

/// Every child a test starts gives back the pipes its output came through.
///
/// They once stayed open (Foundation's `Process` keeps itself and its pipes alive until
/// `waitUntilExit()`): 2,500 descriptors by the end of a run, and `Process.run()`, which lists them all,
/// crashed in CI. Each child here prints which pipes its stdout and stderr are (`pipe:[inode]`); once
/// it is done, the test process must hold neither.
@Suite("Test children leave no descriptor open", .ownThreads)
struct ChildDescriptorTests {
    static let printPipes = "readlink /proc/self/fd/1; readlink /proc/self/fd/2 >&2"

    @Test("runCommand")
    func runCommandClosesItsPipes() throws {
        let result = try runCommand("/bin/sh", ["-c", Self.printPipes])
        let pipes = try Self.pipes(in: [result.stdout, result.stderr])
        #expect(Self.heldHere(pipes).isEmpty)
    }

    @Test("runSupervised")
    func runSupervisedClosesItsPipes() throws {
        let result = try runSupervised("/bin/sh", ["-c", Self.printPipes], timeout: 20)
        let pipes = try Self.pipes(in: [result.stdout, result.stderr])
        #expect(Self.heldHere(pipes).isEmpty)
    }

    @Test("RunningProcess, once stopped")
    func runningProcessClosesItsPipe() throws {
        let process = try RunningProcess("/bin/sh", ["-c", "readlink /proc/self/fd/1; exec sleep 60"])
        #expect(process.waitForLine { $0.hasPrefix("pipe:[") })
        let pipes = try Self.pipes(in: process.lines)
        #expect(Self.heldHere(pipes) == pipes, "the pipe is read while the child runs")
        process.stop()
        #expect(Self.heldHere(pipes).isEmpty)
    }

    /// The `pipe:[inode]` names printed, one per output; fails the test on anything else.
    static func pipes(in outputs: [String]) throws -> Set<String> {
        let names = outputs.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        for name in names { try #require(name.hasPrefix("pipe:["), "not a pipe: \(name)") }
        return Set(names)
    }

    /// Which of `pipes` a descriptor of this process still refers to.
    static func heldHere(_ pipes: Set<String>) -> Set<String> {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") })
            .intersection(pipes)
    }
}
