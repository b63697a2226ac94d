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
/// An attempt is counted *before* the password is checked, in one atomic statement, so concurrent
/// guesses (on one replica or several) cannot all slip in under the limit; a successful login then
/// forgets the account's count. The windows are fixed: they start at the first attempt.
struct LoginRateLimiter: Sendable {
    let store: any LoginAttemptStore
    let limits: LoginRateLimits

    /// Counts an attempt; returns how long to wait if it must be refused.
    func admit(account: String?, address: String?, now: Date = Date()) async throws -> Duration? {
        if let address {
            let tally = try await store.countAttempt(subject: "address:\(address)", window: limits.addressWindow, now: now)
            if tally.attempts > limits.attemptsPerAddress {
                return Self.wait(until: tally.windowStart, window: limits.addressWindow, now: now)
            }
        }
        if let account {
            let tally = try await store.countAttempt(subject: "account:\(account)", window: limits.accountWindow, now: now)
            if tally.attempts > limits.failuresPerAccount {
                return Self.wait(until: tally.windowStart, window: limits.accountWindow, now: now)
            }
        }
        return nil
    }

    /// Forgets the account's attempts after it logged in.
    func succeeded(account: String) async throws {
        try await store.clearAttempts(subject: "account:\(account)")
    }

    private static func wait(until windowStart: Date, window: Duration, now: Date) -> Duration {
        let seconds = windowStart.addingTimeInterval(window.seconds).timeIntervalSince(now)
        return .seconds(max(1, Int(seconds.rounded(.up))))
    }
}
