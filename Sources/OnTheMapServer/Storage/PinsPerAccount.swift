/// How many pins one account may have.
public enum PinsPerAccount: String, Sendable, CaseIterable {
    /// One, kept by a unique index: a second POST moves the first pin (the default).
    case one
    /// Any number, as the upstream service allowed.
    case many
}
