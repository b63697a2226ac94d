import CSystemd

import Glibc

/// `sd_notify` messages to the service manager; every call is a no-op when `NOTIFY_SOCKET` is unset,
/// so the daemon runs the same by hand.
public struct SystemdNotifier: Sendable {
    /// Creates a notifier.
    public init() {}

    /// `READY=1`, with a status line.
    public func ready(status: String) {
        send("READY=1\nSTATUS=\(status)")
    }

    /// `STATUS=…`: the line `systemctl --user status` shows.
    public func status(_ text: String) {
        send("STATUS=\(text)")
    }

    /// `WATCHDOG=1`: the daemon is alive and its state answers.
    public func watchdog() {
        send("WATCHDOG=1")
    }

    /// `STOPPING=1`.
    public func stopping() {
        send("STOPPING=1\nSTATUS=stopping")
    }

    /// `RELOADING=1` (follow with `ready`).
    public func reloading() {
        send("RELOADING=1\nSTATUS=reloading configuration")
    }

    /// Whether a service manager listens (`NOTIFY_SOCKET` is set).
    public var isListening: Bool {
        getenv("NOTIFY_SOCKET") != nil
    }

    /// Half the watchdog interval the manager asked for, or nil when there is no watchdog.
    public func watchdogInterval() -> Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(usec / 2))
    }

    private func send(_ message: String) {
        // sd_notifyf is variadic and cannot be called from Swift: the string is built here.
        _ = sd_notify(0, message)
    }
}
