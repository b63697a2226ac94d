import Foundation
import OnTheMapTestSupport
import Testing

/// Every child a test starts can be stopped: it starts with no signal blocked, whichever thread of
/// the test runner started it (most of them block SIGTERM, SIGINT, SIGHUP and SIGALRM, which a child
/// would inherit: a `timeout` backstop inside a test never fired).
@Suite("Test children start with no signal blocked", .ownThreads)
struct ChildSignalTests {
    /// The blocked signals of a `grep` started by `runCommand`, as the kernel reports them (grep
    /// itself, not a shell, which may set its own at start).
    private func blockedInAChild() throws -> String {
        let result = try runCommand("/bin/grep", ["SigBlk", "/proc/self/status"])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aChildStartedFromATestThreadBlocksNoSignal() throws {
        #expect(try blockedInAChild() == "SigBlk:\t0000000000000000")
    }

    @Test func aChildStartedFromAThreadBlockingSignalsBlocksNoSignal() throws {
        // As the test runner's threads do: every signal blocked on this thread while it starts one.
        var all = sigset_t()
        sigfillset(&all)
        var before = sigset_t()
        pthread_sigmask(SIG_SETMASK, &all, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        #expect(try blockedInAChild() == "SigBlk:\t0000000000000000")
    }
}
