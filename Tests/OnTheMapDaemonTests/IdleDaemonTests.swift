import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// An idle daemon sleeps: Swift concurrency runs on its event loops through SwiftNIO's take-over,
/// so libdispatch's once-a-second pool monitor never starts, and nothing else wakes it.
@Suite("The idle daemon sleeps", .ownThreads)
struct IdleDaemonTests {
    /// Context switches of each of the process's threads, by thread id.
    private func contextSwitches(of pid: Int32) -> [String: Int] {
        var switches: [String: Int] = [:]
        let tasks = "/proc/\(pid)/task"
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { continue }
            switches[thread] = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { Int($0.split(separator: "\t").last ?? "") }.reduce(0, +)
        }
        return switches
    }

    @Test func loggedInAndServedOnceItWakesAtMostOnceInTenSeconds() async throws {
        let bed = try DaemonTestBed(students: 20, daemonArguments: ["--refresh-interval", "3600"])
        defer { bed.tearDown() }
        try bed.login()
        _ = try bed.result("students")
        _ = try bed.result("map", params(("width", .integer(40)), ("height", .integer(12))))
        // Past the moments that follow a request (idle connections closing, buffers freed).
        try await Task.sleep(for: .seconds(3))
        let before = contextSwitches(of: bed.daemon.pid)
        try await Task.sleep(for: .seconds(10))
        let after = contextSwitches(of: bed.daemon.pid)
        let woken = after.reduce(0) { sum, thread in sum + max(0, thread.value - (before[thread.key] ?? 0)) }
        #expect(woken <= 2, "\(woken) context switches in 10 s across \(after.count) threads: \(after)")
        #expect(!bed.daemon.log.contains("could not be moved onto the event loops"), "\(bed.daemon.log)")
    }
}
