import OnTheMapModels

/// The logged-in account: `login`'s result, `status.account` and `sessionChanged.account`.
public struct AccountInfo: Codable, Sendable, Hashable, RPCResultType {
    public var key: String
    public var firstName: String
    public var lastName: String

    /// Creates an account.
    public init(key: String, firstName: String, lastName: String) {
        self.key = key
        self.firstName = firstName
        self.lastName = lastName
    }

    public var wireJSON: WireJSON {
        .object([("key", .string(key)), ("firstName", .string(firstName)), ("lastName", .string(lastName))])
    }

    public init(wireJSON: WireJSON) {
        key = wireJSON["key"]?.stringValue ?? ""
        firstName = wireJSON["firstName"]?.stringValue ?? ""
        lastName = wireJSON["lastName"]?.stringValue ?? ""
    }
}
