import Foundation
import GRDB
import NIOConcurrencyHelpers
import OnTheMapModels

/// `ServerStorage` on one SQLite file (GRDB), for a server that runs as one process.
public struct SQLiteStorage: ServerStorage {
    /// The database and its migrations.
    public let database: AppDatabase
    public let pinsPerAccount: PinsPerAccount
    public let displayName: String

    /// Wraps an open database and applies the pin rule (nil keeps the database's own, as every command
    /// but `serve` does); `mergedPins` tells how many duplicate pins the rule removed (each account
    /// keeps its newest).
    public init(database: AppDatabase, pinsPerAccount: PinsPerAccount? = .one, displayName: String = "SQLite") throws {
        self.database = database
        self.displayName = displayName
        mergedPins = database.mergedByMigration + (try pinsPerAccount.map(database.apply) ?? 0)
        self.pinsPerAccount = try pinsPerAccount ?? database.currentPinsPerAccount()
    }

    /// How many duplicate pins opening this storage merged away.
    public let mergedPins: Int

    /// What to call when an operation meets a damaged page (`whenDamageMet`).
    private let damageMet = NIOLockedValueBox<(@Sendable () -> Void)?>(nil)

    /// Opens the file at `path`; `ifNew` says whether a missing or empty one becomes a new database.
    public static func open(
        path: String, pinsPerAccount: PinsPerAccount?, ifNew: NewDatabasePolicy = .create
    ) throws -> SQLiteStorage {
        try SQLiteStorage(
            database: try AppDatabase.open(path: path, ifNew: ifNew), pinsPerAccount: pinsPerAccount, displayName: path)
    }

    /// True when opening created the database.
    public var wasCreated: Bool { database.wasCreated }

    /// A private in-memory database, for tests.
    public static func inMemory(pinsPerAccount: PinsPerAccount = .one) throws -> SQLiteStorage {
        try SQLiteStorage(database: try AppDatabase.inMemory(), pinsPerAccount: pinsPerAccount, displayName: ":memory:")
    }

    var writer: any DatabaseWriter { database.writer }

    public func ping() async throws {
        try await read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// Checkpoints the WAL into the main file and closes the connections (see `closeConnections`).
    public func close() async {
        try? database.closeConnections()
    }

    /// None: each list request reads the pins' version (one indexed row), so any write is seen next.
    public func locationChangeWatch() -> any LocationChangeWatch { AlwaysAskTheDatabase() }

    public func whenDamageMet(_ action: @escaping @Sendable () -> Void) {
        damageMet.withLockedValue { $0 = action }
    }

    /// A read, with "database is locked" and I/O failures reported as `StorageError.unavailable`.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.read(body) } catch let error as DatabaseError { throw translate(error) }
    }

    /// A write transaction, with the same translation.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.write(body) } catch let error as DatabaseError { throw translate(error) }
    }

    /// One statement in a write transaction; returns how many rows it changed.
    func changedRows(_ sql: String, _ arguments: StatementArguments) async throws -> Int {
        try await write { db in
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
    }

    /// The error a request reports; a damaged page also sets off the integrity check.
    private func translate(_ error: DatabaseError) -> any Error {
        if error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            damageMet.withLockedValue { $0 }?()
        }
        return Self.translate(error)
    }

    private static func translate(_ error: DatabaseError) -> any Error {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_CANTOPEN:
            StorageError.unavailable("SQLite: \(error.message ?? "\(error.resultCode)")")
        default:
            error
        }
    }
}
