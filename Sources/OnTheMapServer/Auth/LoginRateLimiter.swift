import Foundation
import OnTheMapModels

/// How many login attempts are allowed before the server answers 429.
///
/// An account has two bounds: a short pause after a few failures in a row (`failuresPerAccount` in
/// `accountWindow`, a minute), so a person who mistyped waits a minute, not a quarter of an hour,
/// before the right password works; and a longer one for guessing that goes on
/// (`sustainedFailuresPerAccount` in `sustainedWindow`, an hour): 20 attempts an hour, as many as
/// 5 every 15 minutes allowed before. An attempt refused by the short pause is not counted against
/// the hour, so a person retrying during the pause does not lengthen it.
public struct LoginRateLimits: Sendable, Hashable {
    /// Failed logins per account within `accountWindow` before a pause.
    public var failuresPerAccount: Int
    public var accountWindow: Duration
    /// Failed logins per account within `sustainedWindow`.
    public var sustainedFailuresPerAccount: Int
    public var sustainedWindow: Duration
    /// Attempts (failed or not) per client address within `addressWindow`.
    public var attemptsPerAddress: Int
    public var addressWindow: Duration

    /// Creates limits; the defaults stop password guessing without bothering a person who mistypes.
    /// The sustained bound defaults to four times the short one.
    public init(
        failuresPerAccount: Int = 5,
        accountWindow: Duration = .seconds(60),
        sustainedFailuresPerAccount: Int? = nil,
        sustainedWindow: Duration = .seconds(3600),
        attemptsPerAddress: Int = 30,
        addressWindow: Duration = .seconds(60)
    ) {
        self.failuresPerAccount = failuresPerAccount
        self.accountWindow = accountWindow
        self.sustainedFailuresPerAccount = sustainedFailuresPerAccount ?? 4 * failuresPerAccount
        self.sustainedWindow = sustainedWindow
        self.attemptsPerAddress = attemptsPerAddress
        self.addressWindow = addressWindow
    }
}

/// Counts login attempts per client address and per account, in the database.
///
/// An attempt is counted *before* the password is checked, atomically, against the address and then
/// the account in one trip to the database, so concurrent guesses (on one replica or several) cannot
/// all slip in under the limit. An attempt refused for its address does not count against the
/// account (one address cannot lock out accounts faster than its own limit lets it try them), and
/// one refused by the account's short pause does not count against its hour. A successful login
/// forgets the account's counts, in the transaction that stores its session. The windows are fixed:
/// they start at the first attempt.
struct LoginRateLimiter: Sendable {
    let store: any LoginAttemptStore
    let limits: LoginRateLimits

    /// Counts an attempt; returns how long to wait if it must be refused.
    func admit(account: String?, address: String?, now: Date = Date()) async throws -> Duration? {
        var counters: [AttemptCounter] = []
        if let address {
            counters.append(
                AttemptCounter(subject: Self.subject(address: address), window: limits.addressWindow, limit: limits.attemptsPerAddress))
        }
        if let account {
            counters.append(
                AttemptCounter(subject: Self.subject(account: account), window: limits.accountWindow, limit: limits.failuresPerAccount))
            counters.append(
                AttemptCounter(
                    subject: Self.sustainedSubject(account: account), window: limits.sustainedWindow,
                    limit: limits.sustainedFailuresPerAccount))
        }
        let tallies = try await store.countAttempts(counters, now: now)
        for (counter, tally) in zip(counters, tallies) where tally.attempts > counter.limit {
            return Self.wait(until: tally.windowStart, window: counter.window, now: now)
        }
        return nil
    }

    /// The subject an account's attempts are counted under for its short pause.
    static func subject(account: String) -> String {
        "account:\(account)"
    }

    /// The subject an account's attempts are counted under for the hour.
    static func sustainedSubject(account: String) -> String {
        "account-hour:\(account)"
    }

    /// Every count of an account's attempts, which a successful login forgets
    /// (`SessionStore.insertSession(_:now:forgettingAttemptsOf:)`).
    static func subjects(account: String) -> [String] {
        [subject(account: account), sustainedSubject(account: account)]
    }

    /// The subject a client address's attempts are counted under.
    static func subject(address: String) -> String {
        "address:\(address)"
    }

    private static func wait(until windowStart: Date, window: Duration, now: Date) -> Duration {
        let seconds = windowStart.addingTimeInterval(window.seconds).timeIntervalSince(now)
        return .seconds(max(1, Int(seconds.rounded(.up))))
    }
}
