import GRDBSQLite
import NIOConcurrencyHelpers

/// Notices any commit to the SQLite file — the server's own writes and another process's (an admin
/// command) alike — with `PRAGMA data_version` on a connection of its own.
///
/// SQLite changes a connection's `data_version` whenever another connection commits (the pool's
/// writer is one of those "other" connections, so the server's own writes count too). The check is
/// exact: a commit that finished before a request arrives is seen by that request. It costs a few
/// microseconds on the request's thread; the connection is SQLite's C API under a lock, since GRDB's
/// queue would add a thread hand-off to each check. The mark changes on every commit (logins too), so
/// after one the cache re-reads the pins' version once, which tells it whether pins changed.
final class SQLiteChangeWatch: LocationChangeWatch {
    private struct State: @unchecked Sendable {
        /// The read-only connection and its prepared `PRAGMA data_version`; nil once closed.
        var connection: OpaquePointer?
        var statement: OpaquePointer?
        var lastDataVersion: Int64?
        var mark: UInt64 = 0
    }

    private let state: NIOLockedValueBox<State>

    /// Opens a read-only connection to the file at `path`.
    init(path: String) throws {
        var connection: OpaquePointer?
        var statement: OpaquePointer?
        // No busy timeout: a check never waits on a lock; on SQLITE_BUSY the cache asks the database.
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            sqlite3_prepare_v2(connection, "PRAGMA data_version", -1, &statement, nil) == SQLITE_OK
        else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            throw StorageError.unavailable("SQLite change watch on \(path): \(message)")
        }
        state = NIOLockedValueBox(State(connection: connection, statement: statement))
    }

    func mark() -> UInt64? {
        state.withLockedValue { state in
            guard let statement = state.statement else { return nil }
            defer { sqlite3_reset(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
            let version = sqlite3_column_int64(statement, 0)
            if version != state.lastDataVersion {
                state.lastDataVersion = version
                state.mark &+= 1
            }
            return state.mark
        }
    }

    /// Closes the connection; `mark()` returns nil afterwards.
    func close() {
        state.withLockedValue { state in
            sqlite3_finalize(state.statement)
            sqlite3_close_v2(state.connection)
            state.statement = nil
            state.connection = nil
        }
    }
}
