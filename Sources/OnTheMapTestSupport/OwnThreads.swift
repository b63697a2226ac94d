import Foundation
import Testing

/// Runs each test of a suite on threads of its own instead of Swift's cooperative pool.
///
/// The pool has one thread per core (two here). Integration tests block while they wait on sockets
/// and processes; two such tests at once used to stall everything else on the pool, including the
/// in-process stand-in servers other tests depend on and every async test's timer, so tests failed
/// only on a busy machine. With this trait a test's task (and every child task, which inherits the
/// preference) runs on a pool of threads of its own, which grows when all its threads are blocked.
/// How many tests run at once is bounded separately (`make test` passes
/// `--experimental-maximum-parallelization-width`).
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Once per test case; the suite itself needs no scope of its own.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadPoolTaskExecutor(label: test.name)) {
            try await function()
        }
    }
}

extension Trait where Self == OwnThreads {
    /// Runs each test on threads of its own (see `OwnThreads`).
    public static var ownThreads: Self { OwnThreads() }
}

/// A task executor with a pool of threads that grows whenever every thread is busy: a job that
/// blocks (a test waiting on a process) never holds up another (the stand-in server that process
/// talks to). Dispatch's queues are no substitute: their pools are as wide as the machine has cores.
/// Threads idle for 10 s leave. Guarded by `condition`.
final class ThreadPoolTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var idleThreads = 0
    private let name: String

    init(label: String) {
        name = "test: \(label)"
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        if idleThreads == 0 {
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        } else {
            condition.signal()
        }
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while jobs.isEmpty {
                idleThreads += 1
                let woken = condition.wait(until: Date(timeIntervalSinceNow: 10))
                idleThreads -= 1
                if !woken, jobs.isEmpty {
                    condition.unlock()
                    return
                }
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            condition.lock()
        }
    }
}
