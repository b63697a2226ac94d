import Foundation
import OnTheMapModels

/// How many pins one account may have.
public enum PinsPerAccount: String, Sendable, CaseIterable {
    /// One, kept by a unique index: a second POST moves the first pin (the default).
    case one
    /// Any number, as the upstream service allowed.
    case many
}

/// What `postLocation` did.
public struct PostedLocation: Sendable, Hashable {
    /// The pin's id: the new one, or the existing pin's when it was moved.
    public var objectId: String
    /// When the pin was first created.
    public var createdAt: Date
    /// True when an existing pin of the account was moved instead of a new one created.
    public var moved: Bool
}

/// What `updateLocation` did.
public enum LocationUpdate: Sendable, Hashable {
    /// The pin as it is now.
    case updated(StudentLocation)
    /// No pin has that id.
    case notFound
    /// The pin is another account's: nothing changed.
    case ownedByAnother
    /// The pin was written since it was read (its `updatedAt` is not the one given): nothing changed.
    case changedSinceRead
}

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

/// One term of an `order` parameter: a column, ascending or descending.
public struct SortTerm: Hashable, Sendable {
    public var column: String
    public var descending: Bool

    public init(column: String, descending: Bool) {
        self.column = column
        self.descending = descending
    }
}

/// Which pins to list, in which order.
public struct LocationQuery: Hashable, Sendable {
    /// The keys a client may sort by: the wire names, which are also the column names.
    public static let sortableColumns: Set<String> = [
        "objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL", "latitude", "longitude",
        "createdAt", "updatedAt",
    ]

    public var limit: Int
    public var skip: Int
    public var order: [SortTerm]
    public var uniqueKey: String?
    /// Further conditions (the Parse dialect's `where`).
    public var filters: [LocationFilter]

    public init(
        limit: Int = 100, skip: Int = 0, order: [SortTerm] = [], uniqueKey: String? = nil, filters: [LocationFilter] = []
    ) {
        self.limit = limit
        self.skip = skip
        self.order = order
        self.uniqueKey = uniqueKey
        self.filters = filters
    }

    /// `ORDER BY` text for the terms (column names checked against `sortableColumns`), then `objectId`.
    var orderByClause: String {
        let terms = order.filter { Self.sortableColumns.contains($0.column) }
            .map { "\($0.column) \($0.descending ? "DESC" : "ASC")" }
        return (terms + ["objectId ASC"]).joined(separator: ", ")
    }
}
