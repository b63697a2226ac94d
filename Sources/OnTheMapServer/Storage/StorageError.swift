import Foundation
import Logging

/// A storage failure the HTTP layer and the commands turn into a clear answer.
public enum StorageError: Error, Sendable, CustomStringConvertible {
    /// The database cannot be reached (or is shutting down): try again later.
    case unavailable(String)
    /// The database is known to be out (the outage was logged when found): refused without asking it.
    case out(String)
    /// An account with this email exists.
    case emailTaken(String)
    /// The account (its unique key) already has a pin, and only one is allowed.
    case accountHasPin(String)
    /// A database URL that cannot be used.
    case invalidURL(String)
    /// A restore or copy into a database that already holds data.
    case notEmpty(String)
    /// No OnTheMap database where one was expected (a missing or 0-byte file, a PostgreSQL database
    /// without the schema), and creating one was not asked for; or a file that is not a database.
    case notADatabase(String)
    /// The database refused this server for a reason that waiting will not change (no such database
    /// or role, a wrong password, no permission): the detail quotes it.
    case refused(String)

    /// What happened and what to do, for a person.
    public var description: String {
        switch self {
        case .unavailable(let detail), .out(let detail): "The database is unavailable (\(detail))."
        case .emailTaken(let email): "An account with the email \(email) already exists."
        case .accountHasPin(let key): "The account \(key) already has a pin; only one pin per account is allowed."
        case .notEmpty(let detail): "Refusing to overwrite data: \(detail)."
        case .invalidURL(let text), .notADatabase(let text), .refused(let text): text
        }
    }

    /// True when the database could not be reached: worth a 503 and a retry.
    public var isUnavailable: Bool {
        switch self {
        case .unavailable, .out: true
        default: false
        }
    }

    /// How loudly to log a request that failed with this: a refusal during a known outage (`out`) at
    /// debug (the outage itself was logged once, when found), anything else as an error.
    static func logLevel(for error: any Error) -> Logger.Level {
        if case .out? = error as? StorageError { .debug } else { .error }
    }
}
