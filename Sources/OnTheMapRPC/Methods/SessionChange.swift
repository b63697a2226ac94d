/// `sessionChanged`'s params: `{loggedIn, account?, reason?}`, sent to connections subscribed to
/// `session` when the session or its account changes.
public struct SessionChange: RPCResultType, Equatable {
    public var loggedIn: Bool
    /// Absent when logged out.
    public var account: AccountInfo?
    /// Why the session ended (`loggedOut`, `expired`, `rejected`), when it just did.
    public var reason: String?

    public init(account: AccountInfo?, reason: String?) {
        self.loggedIn = account != nil
        self.account = account
        self.reason = reason
    }
}
