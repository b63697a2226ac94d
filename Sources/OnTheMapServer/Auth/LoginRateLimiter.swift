import Foundation
import OnTheMapModels

/// How many login attempts are allowed before the server answers 429.
public struct LoginRateLimits: Sendable, Hashable {
    /// Failed logins per account within `accountWindow`.
    public var failuresPerAccount: Int
    public var accountWindow: Duration
    /// Attempts (failed or not) per client address within `addressWindow`.
    public var attemptsPerAddress: Int
    public var addressWindow: Duration

    /// Creates limits; the defaults stop password guessing without bothering a person who mistypes.
    public init(
        failuresPerAccount: Int = 5,
        accountWindow: Duration = .seconds(15 * 60),
        attemptsPerAddress: Int = 30,
        addressWindow: Duration = .seconds(60)
    ) {
        self.failuresPerAccount = failuresPerAccount
        self.accountWindow = accountWindow
        self.attemptsPerAddress = attemptsPerAddress
        self.addressWindow = addressWindow
    }
}

/// Counts login attempts per account and per client address, in the database.
///
/// An attempt is counted *before* the password is checked, atomically and against the address and
/// the account at once (one trip to the database), so concurrent guesses (on one replica or several)
/// cannot all slip in under the limit; a successful login then forgets the account's count, in the
/// transaction that stores its session (`forgetOnSuccess`). The windows are fixed: they start at the
/// first attempt.
struct LoginRateLimiter: Sendable {
    let store: any LoginAttemptStore
    let limits: LoginRateLimits

    /// Counts an attempt; returns how long to wait if it must be refused (the address's limit is
    /// checked first).
    func admit(account: String?, address: String?, now: Date = Date()) async throws -> Duration? {
        var counters: [AttemptCounter] = []
        var allowed: [Int] = []
        if let address {
            counters.append(AttemptCounter(subject: "address:\(address)", window: limits.addressWindow))
            allowed.append(limits.attemptsPerAddress)
        }
        if let account {
            counters.append(AttemptCounter(subject: Self.forgetOnSuccess(account: account), window: limits.accountWindow))
            allowed.append(limits.failuresPerAccount)
        }
        let tallies = try await store.countAttempts(counters, now: now)
        for (index, tally) in tallies.enumerated() where tally.attempts > allowed[index] {
            return Self.wait(until: tally.windowStart, window: counters[index].window, now: now)
        }
        return nil
    }

    /// The subject whose attempts a successful login of `account` forgets
    /// (`SessionStore.insertSession(_:now:forgettingAttemptsOf:)`).
    static func forgetOnSuccess(account: String) -> String {
        "account:\(account)"
    }

    private static func wait(until windowStart: Date, window: Duration, now: Date) -> Duration {
        let seconds = windowStart.addingTimeInterval(window.seconds).timeIntervalSince(now)
        return .seconds(max(1, Int(seconds.rounded(.up))))
    }
}
