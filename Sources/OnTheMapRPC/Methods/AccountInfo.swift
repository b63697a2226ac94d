import OnTheMapModels

/// The logged-in account: `login`'s result, `status.account` and `sessionChanged.account`.
public struct AccountInfo: Sendable, Hashable, RPCResultType {
    public var key: String
    public var firstName: String
    public var lastName: String

    /// Creates an account.
    public init(key: String, firstName: String, lastName: String) {
        self.key = key
        self.firstName = firstName
        self.lastName = lastName
    }

    /// "Ada Lovelace", or whichever part is known.
    public var fullName: String { FullName.of(first: firstName, last: lastName) }
}
