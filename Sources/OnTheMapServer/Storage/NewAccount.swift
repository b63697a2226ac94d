import Foundation

/// A new password or Facebook account, before it has a key.
public struct NewAccount: Sendable, Hashable {
    public var email: String?
    public var passwordHash: String?
    public var facebookID: String?
    public var firstName: String
    public var lastName: String
    public var nickname: String
    public var createdAt: Date

    /// Creates the description of an account to add.
    public init(
        email: String?, passwordHash: String?, facebookID: String? = nil, firstName: String, lastName: String,
        nickname: String? = nil, createdAt: Date = Date()
    ) {
        self.email = email
        self.passwordHash = passwordHash
        self.facebookID = facebookID
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname ?? firstName
        self.createdAt = createdAt
    }
}
