import GRDB
import PostgresNIO

/// A storage failure in one line of the operator's words: what SQLite or PostgreSQL said, not the
/// driver's type (`PSQLError`'s own description hides the server's message).
public func describeStorageFailure(_ error: any Error) -> String {
    let error = PostgresErrors.unwrap(error)
    let text: String
    switch error {
    case let error as StorageError:
        text = error.description
    case let error as PSQLError:
        text = "PostgreSQL: " + (error.serverInfo?[.message] ?? PostgresErrors.summary(error))
    case let error as DatabaseError:
        text = "SQLite: " + (error.message ?? "\(error.resultCode)")
    default:
        text = "\(error)"
    }
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
}
