import Foundation

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

/// Sliding-window counters of login attempts, per account and per client address.
///
/// State is actor-isolated; tables are pruned as they grow so a flood of addresses cannot exhaust memory.
actor LoginRateLimiter {
    private let limits: LoginRateLimits
    private var failuresByAccount: [String: [Date]] = [:]
    private var attemptsByAddress: [String: [Date]] = [:]
    private static let pruneThreshold = 10_000

    init(limits: LoginRateLimits) {
        self.limits = limits
    }

    /// Counts an attempt from `address`; returns how long to wait if the attempt must be refused.
    func admit(account: String?, address: String?, now: Date = Date()) -> Duration? {
        if let address {
            var attempts = recent(attemptsByAddress[address] ?? [], window: limits.addressWindow, now: now)
            if attempts.count >= limits.attemptsPerAddress {
                attemptsByAddress[address] = attempts
                return retryAfter(oldest: attempts.first!, window: limits.addressWindow, now: now)
            }
            attempts.append(now)
            attemptsByAddress[address] = attempts
            pruneIfLarge(&attemptsByAddress, window: limits.addressWindow, now: now)
        }
        if let account {
            let failures = recent(failuresByAccount[account] ?? [], window: limits.accountWindow, now: now)
            failuresByAccount[account] = failures
            if failures.count >= limits.failuresPerAccount {
                return retryAfter(oldest: failures.first!, window: limits.accountWindow, now: now)
            }
        }
        return nil
    }

    /// Remembers a failed login for the account.
    func recordFailure(account: String, now: Date = Date()) {
        failuresByAccount[account, default: []].append(now)
        pruneIfLarge(&failuresByAccount, window: limits.accountWindow, now: now)
    }

    /// Forgets the account's failures after it logged in.
    func recordSuccess(account: String) {
        failuresByAccount[account] = nil
    }

    private func recent(_ times: [Date], window: Duration, now: Date) -> [Date] {
        let cutoff = now.addingTimeInterval(-Self.seconds(window))
        return times.filter { $0 > cutoff }
    }

    private func retryAfter(oldest: Date, window: Duration, now: Date) -> Duration {
        let seconds = oldest.addingTimeInterval(Self.seconds(window)).timeIntervalSince(now)
        return .seconds(max(1, Int(seconds.rounded(.up))))
    }

    private func pruneIfLarge(_ table: inout [String: [Date]], window: Duration, now: Date) {
        guard table.count > Self.pruneThreshold else { return }
        let cutoff = now.addingTimeInterval(-Self.seconds(window))
        table = table.filter { $0.value.contains { $0 > cutoff } }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }
}
