import Hummingbird
import Logging

/// What an error that reached an error middleware means for the answer, read one way for both
/// dialects (`APIErrorMiddleware` for the Udacity paths, `ParseMiddleware` for Parse's): which
/// storage errors are an outage (503, try again) or a refused write (a conflict), and what is
/// logged. Each middleware only words the answer in its dialect.
enum RequestFailure {
    /// The database cannot be reached: 503 with `Retry-After`.
    case unavailable
    /// A second pin for an account that has one (the database's unique constraint refused it).
    case accountHasPin(String)
    /// An account with that email exists already.
    case emailTaken(String)
    /// Hummingbird's own refusal (no such route, body too large …), with its status.
    case http(HTTPError)
    /// Anything else: a fault of the server, logged with the path.
    case unexpected

    static let unavailableMessage = "The database is unavailable; try again in a few seconds."
    /// Seconds a client waits before trying again during an outage.
    static let unavailableRetryAfter = "5"
    static let unexpectedMessage = "Internal server error; the server log has details."

    /// Classifies `error` (from a request for `path`) and logs what deserves a line: a refusal during
    /// an outage at `StorageError.logLevel(for:)` (debug once the outage itself was logged), an
    /// unexpected error as an error.
    init(classifying error: any Error, path: String, logger: Logger) {
        switch error {
        case let error as StorageError where error.isUnavailable:
            logger.log(
                level: StorageError.logLevel(for: error), "database unavailable",
                metadata: ["path": "\(path)", "error": "\(error)"])
            self = .unavailable
        case StorageError.accountHasPin:
            self = .accountHasPin("\(error)")
        case StorageError.emailTaken:
            self = .emailTaken("\(error)")
        case let error as HTTPError:
            self = .http(error)
        default:
            logger.error("request failed", metadata: ["path": "\(path)", "error": "\(error)"])
            self = .unexpected
        }
    }
}
