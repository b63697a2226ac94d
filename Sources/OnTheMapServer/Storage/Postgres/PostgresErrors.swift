import PostgresNIO

/// What a PostgreSQL failure means: the database is not there right now (wait, retry), the server
/// refuses this replica for a reason waiting will not change (say so at once), or one statement
/// failed.
enum PostgresErrors {
    /// Failures worth a 503 and a retry as `StorageError.unavailable`; any other error as it is.
    static func translate(_ error: PSQLError) -> any Error {
        if error.code == .server {
            let state = sqlState(error)
            // 08: connection exception; 57P0x: shutting down / cannot connect now; 53: out of resources;
            // 40001 and 40P01: rolled back for a serialization failure or a deadlock, so the same
            // request may succeed if sent again: a 503 with Retry-After, not a 500.
            if state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53") || state == "40001"
                || state == "40P01"
            {
                return StorageError.unavailable("PostgreSQL: \(error.serverInfo?[.message] ?? state)")
            }
            return error
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
            .sslUnsupported, .failedToAddSSLHandler:
            return StorageError.unavailable("PostgreSQL: \(summary(error))")
        default:
            return error
        }
    }

    /// The error inside a transaction's wrapper (PostgresNIO wraps whatever `withTransaction` met:
    /// the BEGIN's, the body's or the COMMIT's), so it is judged as it would be outside one.
    static func unwrap(_ error: any Error) -> any Error {
        guard let wrapped = error as? PostgresTransactionError else { return error }
        return wrapped.closureError ?? wrapped.beginError ?? wrapped.commitError ?? error
    }

    /// What went wrong, in a few words: the server's message, or the error's code and what it wraps
    /// (`connection refused`). PSQLError's own description hides both.
    static func summary(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] { return message }
        return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
    }

    /// Whether the failure says the database cannot be reached at all (down, restarting, the
    /// connection cut, or closed by PostgresNIO after the socket failed), as opposed to refusing one
    /// statement.
    static func meansUnreachable(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown: return true
        case .server:
            let state = sqlState(error)
            return state.hasPrefix("08") || state.hasPrefix("57P")
        default: return false
        }
    }

    /// Whether PostgreSQL refused this replica for a reason that waiting will not change: the
    /// database does not exist (3D000), the role does not exist or may not log in (28000), a wrong
    /// password (28P01), no permission (42501). Someone must change the URL or the database.
    /// So is TLS asked for (`sslmode=require`) of a server that has none.
    static func needsOperator(_ error: PSQLError) -> Bool {
        if error.code == .sslUnsupported { return true }
        return error.code == .server && ["3D000", "28000", "28P01", "42501"].contains(sqlState(error))
    }

    /// Whether `error` is the pool's own verdict rather than PostgreSQL's: after a minute of failed
    /// connections, PostgresNIO's pool fails every request with a `ConnectionPoolError` it passes on
    /// as it is (its other errors become `PSQLError`s). That type lives in `_ConnectionPoolModule`,
    /// which PostgresNIO does not make public, so it is known by its name here;
    /// `PostgresErrorsTests` makes one and fails if the name changes in an upgrade.
    static func isPoolVerdict(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)).hasSuffix(".ConnectionPoolError")
    }

    /// True for a unique-constraint violation (SQLSTATE 23505).
    static func isUniqueViolation(_ error: any Error) -> Bool {
        (unwrap(error) as? PSQLError).map(sqlState) == "23505"
    }

    private static func sqlState(_ error: PSQLError) -> String {
        error.serverInfo?[.sqlState] ?? ""
    }
}
