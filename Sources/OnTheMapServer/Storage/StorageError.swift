import Foundation
import Logging

/// A storage failure the HTTP layer and the commands turn into a clear answer.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    private enum Code: Sendable {
        case unavailable
        case out
        case emailTaken
        case accountHasPin
        case invalidURL
        case notEmpty
        case notADatabase
        case refused
    }

    private let code: Code
    /// What happened and what to do, for a person.
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The database cannot be reached (or is shutting down): try again later.
    public static func unavailable(_ detail: String) -> StorageError {
        StorageError(.unavailable, "The database is unavailable (\(detail)).")
    }

    /// The database is known to be out (the outage was logged when found): refused without asking it.
    public static func out(_ detail: String) -> StorageError {
        StorageError(.out, "The database is unavailable (\(detail)).")
    }

    /// An account with this email exists.
    public static func emailTaken(_ email: String) -> StorageError {
        StorageError(.emailTaken, "An account with the email \(email) already exists.")
    }

    /// The account already has a pin, and only one is allowed.
    public static func accountHasPin(_ uniqueKey: String) -> StorageError {
        StorageError(.accountHasPin, "The account \(uniqueKey) already has a pin; only one pin per account is allowed.")
    }

    /// A database URL that cannot be used.
    public static func invalidURL(_ detail: String) -> StorageError {
        StorageError(.invalidURL, detail)
    }

    /// A restore or copy into a database that already holds data.
    public static func notEmpty(_ detail: String) -> StorageError {
        StorageError(.notEmpty, "Refusing to overwrite data: \(detail).")
    }

    /// No OnTheMap database where one was expected (a missing or 0-byte file, a PostgreSQL database
    /// without the schema), and creating one was not asked for; or a file that is not a database.
    public static func notADatabase(_ detail: String) -> StorageError {
        StorageError(.notADatabase, detail)
    }

    /// The database refused this server for a reason that waiting will not change (no such database
    /// or role, a wrong password, no permission): `detail` quotes it.
    public static func refused(_ detail: String) -> StorageError {
        StorageError(.refused, detail)
    }

    /// True when there was no database to open (`notADatabase`).
    public var isNotADatabase: Bool { code == .notADatabase }

    /// True when the database could not be reached: worth a 503 and a retry.
    public var isUnavailable: Bool { code == .unavailable || code == .out }
    /// True when the request was refused because the database is known to be out: its outage was
    /// logged once, so the refusal is not logged again.
    public var isKnownOutage: Bool { code == .out }

    /// How loudly to log a request that failed with this: a refusal during a known outage at debug
    /// (the outage itself was logged once, when found), anything else as an error.
    static func logLevel(for error: any Error) -> Logger.Level {
        (error as? StorageError)?.isKnownOutage == true ? .debug : .error
    }
    /// True when an email was already in use.
    public var isEmailTaken: Bool { code == .emailTaken }
    /// True when an account already had a pin.
    public var isAccountHasPin: Bool { code == .accountHasPin }
}
