import Foundation

/// What one login attempt is counted against: a subject (`account:EMAIL` or `address:IP`), the
/// length of its fixed window, and how many attempts the window allows.
public struct AttemptCounter: Sendable, Hashable {
    public var subject: String
    public var window: Duration
    public var limit: Int

    public init(subject: String, window: Duration, limit: Int) {
        self.subject = subject
        self.window = window
        self.limit = limit
    }
}

/// An attempt count within its window.
public struct AttemptTally: Sendable, Hashable {
    /// Attempts in the window, this one included.
    public var attempts: Int
    /// When the window began.
    public var windowStart: Date
}
