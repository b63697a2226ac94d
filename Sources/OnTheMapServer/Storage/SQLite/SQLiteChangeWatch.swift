import GRDB
import NIOConcurrencyHelpers

/// Notices any commit to the SQLite file — the server's own writes and another process's (an admin
/// command) alike — with `PRAGMA data_version` on a connection of its own.
///
/// SQLite changes a connection's `data_version` whenever another connection commits; asking costs
/// a few microseconds and no thread switch (the pool's writer is one of those "other" connections,
/// so the server's own writes count too). The check is exact: a commit that finished before a
/// request arrives is seen by that request. The mark changes on every commit (logins too), so
/// after one the cache re-reads the pins' version once, which tells it whether pins changed.
final class SQLiteChangeWatch: LocationChangeWatch {
    private struct State {
        var connection: DatabaseQueue?
        var lastDataVersion: Int64?
        var mark: UInt64 = 0
    }

    private let state: NIOLockedValueBox<State>

    /// Opens a read-only connection to the file at `path`.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        // Never wait on a lock while holding a request's thread: on busy, the cache asks the database.
        configuration.busyMode = .immediateError
        configuration.label = "onthemap.changeWatch"
        state = NIOLockedValueBox(State(connection: try DatabaseQueue(path: path, configuration: configuration)))
    }

    func mark() -> UInt64? {
        state.withLockedValue { state in
            guard let connection = state.connection,
                let version = try? connection.inDatabase({ db in
                    try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version"))
                })
            else { return nil }
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
            try? state.connection?.close()
            state.connection = nil
        }
    }
}
