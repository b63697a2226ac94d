import Foundation

extension Process {
    /// The exit status if the child has exited (128 + the signal if one killed it), else nil.
    ///
    /// Asked of the kernel (`waitid` with `WNOWAIT`, which leaves the child for Foundation to reap),
    /// not of Foundation: under load Foundation was seen to miss an exit for good, leaving
    /// `waitUntilExit()` waiting on a zombie and the test run hanging until its time limit.
    public var exitStatusIfExited: Int32? {
        let pid = processIdentifier
        guard pid > 0 else { return nil }
        var info = siginfo_t()
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
            let child = info._sifields._sigchld
            guard child.si_pid == pid else { return nil }
            return info.si_code == CLD_EXITED ? child.si_status : 128 + child.si_status
        }
        // ECHILD: Foundation has reaped it already, so it knows the status.
        return errno == ECHILD && !isRunning ? terminationStatus : nil
    }

    /// Whether the child is still running, by the kernel's account.
    public var isAlive: Bool { exitStatusIfExited == nil }

    /// Waits up to `timeout` for the child to exit; its status, or nil if it is still running.
    public func waitForExit(timeout: TimeInterval = .infinity) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = exitStatusIfExited { return status }
            if Date() >= deadline { return nil }
            usleep(10_000)
        }
    }
}

extension Process {
    /// `run()`, one at a time across the test process.
    ///
    /// Tests run on threads of their own (`.ownThreads`) and start processes at the same moment;
    /// Foundation's `Process.run()` is not safe to call concurrently on Linux: one CI run crashed in
    /// its `memcpy` with a bad pointer while several tests launched children together.
    ///
    /// The child starts with no signal blocked. A child inherits the blocked signals of the thread
    /// that starts it, and the test runner's threads block nearly all of them (SIGTERM, SIGINT,
    /// SIGHUP, SIGALRM: `SigBlk: fffffffe3bfbea27` in a CI run): a `sh -c` loop then ignored the
    /// SIGTERM meant to end it, and `timeout N` inside a test never fired (its SIGALRM blocked), so
    /// a backstop meant to end a hung command did not. Foundation's `Process` has no setting for
    /// it and spawns on the calling thread, so that thread unblocks them for the launch.
    public func spawn() throws {
        ProcessLaunches.gate.wait()
        defer { ProcessLaunches.gate.signal() }
        var none = sigset_t()
        sigemptyset(&none)
        var blocked = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &blocked)
        defer { pthread_sigmask(SIG_SETMASK, &blocked, nil) }
        try run()
    }
}

/// The gate every `Process.spawn()` passes, one at a time; a test can hold it closed.
public enum ProcessLaunches {
    /// A semaphore rather than a lock: a test pauses launches on one thread and resumes them from
    /// another, after awaiting.
    static let gate = DispatchSemaphore(value: 1)

    /// Waits for any launch under way, then lets none start until `resume()`. For a test that holds
    /// a thousand descriptors: Foundation's `Process.run()` lists `/proc/self/fd` and copies each
    /// entry's whole 256-byte name field; with ~1,360 descriptors open, the last entry ends the
    /// 32 KiB buffer glibc reads them into, and the copy runs past it (two CI crashes in a `memcpy`,
    /// the registers holding descriptor numbers as text). Blocks: call it off Swift's pool.
    public static func pause() {
        gate.wait()
    }

    /// Lets launches start again.
    public static func resume() {
        gate.signal()
    }
}
