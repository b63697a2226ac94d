import Foundation
import GRDB
import SystemPackage

/// The server's SQLite database: schema, migrations and the way it is opened.
///
/// Takes `any DatabaseWriter` (as GRDB's demo `AppDatabase` does) so tests can pass an in-memory
/// database and production a WAL file.
public struct AppDatabase: Sendable {
    /// The connection (pool or queue); GRDB serializes writes.
    public let writer: any DatabaseWriter

    /// Wraps a database and brings its schema up to date.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        let before = try Self.pinCount(writer)
        wasCreated = try !writer.read { db in try db.tableExists("grdb_migrations") }
        try Self.migrator.migrate(writer)
        mergedByMigration = max(0, before - (try Self.pinCount(writer)))
    }

    /// How many duplicate pins the migrations merged away when this database was opened.
    public let mergedByMigration: Int
    /// True when opening created the schema: the database was new.
    public let wasCreated: Bool

    private static func pinCount(_ writer: any DatabaseWriter) throws -> Int {
        try writer.read { db in
            try db.tableExists("studentLocation") ? try Int.fetchOne(db, sql: "SELECT count(*) FROM studentLocation") ?? 0 : 0
        }
    }

    /// Opens the file at `path` in WAL mode, readable by its owner only. A missing or 0-byte file (or a
    /// SQLite file with no tables) becomes a new database only when `ifNew` is `.create`; a file that
    /// is not SQLite, or holds another program's tables, is refused either way.
    public static func open(path: String, ifNew: NewDatabasePolicy = .create) throws -> AppDatabase {
        try SQLiteFile.check(path, ifNew: ifNew)
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // SQLite gives the -wal and -shm files the main file's mode, so creating it 0600 covers all three.
        if !FileManager.default.fileExists(atPath: path) {
            try? FileDescriptor.open(FilePath(path), .writeOnly, options: .create, permissions: .ownerReadWrite).close()
        }
        // GRDB enables foreign keys (the sessions' ON DELETE CASCADE) by default.
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: path, configuration: configuration)
        do {
            try checkSchema(pool, path: path, ifNew: ifNew)
            return try AppDatabase(pool)
        } catch {
            try? pool.close()
            throw error
        }
    }

    /// Refuses a SQLite database that holds tables but not the server's (another program's file),
    /// and one with no tables at all unless `ifNew` allows creating the schema.
    private static func checkSchema(_ pool: DatabasePool, path: String, ifNew: NewDatabasePolicy) throws {
        let (ours, tables) = try pool.read { db in
            (try db.tableExists("grdb_migrations"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0)
        }
        if ours { return }
        if tables > 0 {
            throw StorageError.notADatabase(
                "\(path) is a SQLite database of another program (it has no OnTheMap tables): give the path of an OnTheMap database.")
        }
        if ifNew == .refuse {
            throw StorageError.notADatabase(
                "\(path) is an empty SQLite database: check the path, or create the OnTheMap tables in it with "
                    + "`onthemap-server migrate --create`.")
        }
    }

    /// A private in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue())
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: accounts, sessions, student locations") { db in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("key", .text).notNull().unique()
                t.column("email", .text).unique().collate(.nocase)
                t.column("passwordHash", .text)
                t.column("facebookID", .text).unique()
                t.column("firstName", .text).notNull()
                t.column("lastName", .text).notNull()
                t.column("nickname", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "session") { t in
                t.primaryKey("id", .text)
                t.column("xsrfToken", .text).notNull().unique()
                t.column("accountKey", .text).notNull().indexed()
                    .references("account", column: "key", onDelete: .cascade)
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull().indexed()
            }
            try db.create(table: "studentLocation") { t in
                t.primaryKey("objectId", .text)
                t.column("uniqueKey", .text).notNull().indexed()
                t.column("firstName", .text).notNull()
                t.column("lastName", .text).notNull()
                t.column("mapString", .text).notNull()
                t.column("mediaURL", .text).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull().indexed()
            }
        }
        migrator.registerMigration("v2: login attempts, pin versions, disabled accounts") { db in
            try db.execute(sql: SharedSchema.loginThrottle)
            try db.execute(sql: SharedSchema.changeCounter)
            try db.execute(sql: "INSERT INTO changeCounter (name, version) VALUES ('studentLocation', 0)")
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER studentLocation_\(event.lowercased())_bumps_version AFTER \(event) ON studentLocation
                        BEGIN UPDATE changeCounter SET version = version + 1 WHERE name = 'studentLocation'; END
                        """)
            }
            try db.alter(table: "account") { t in
                t.add(column: "disabled", .boolean).notNull().defaults(to: false)
            }
            // One pin per account becomes the rule: each account keeps its newest pin.
            try db.execute(sql: SharedSchema.mergeDuplicatePins)
            try db.execute(sql: SharedSchema.onePinIndex)
        }
        migrator.registerMigration("v3: where and when sessions are used") { db in
            try db.alter(table: "session") { t in
                t.add(column: "lastUsedAt", .datetime)
                t.add(column: "clientAddress", .text)
                t.add(column: "userAgent", .text)
            }
        }
        return migrator
    }

    /// Brings the pin rule in line with `policy`: for one pin per account, if the unique index is not
    /// there yet, first merges every account's pins into its newest, then adds the index; for many,
    /// drops the index. Returns how many pins were merged away.
    @discardableResult
    public func apply(_ policy: PinsPerAccount) throws -> Int {
        try writer.write { db in
            switch policy {
            case .one:
                guard try !Self.hasOnePinIndex(db) else { return 0 }
                try db.execute(sql: SharedSchema.mergeDuplicatePins)
                let merged = db.changesCount
                try db.execute(sql: SharedSchema.onePinIndex)
                return merged
            case .many:
                try db.execute(sql: "DROP INDEX IF EXISTS \(SharedSchema.onePinIndexName)")
                return 0
            }
        }
    }

    /// The rule the database keeps now: one pin per account when the unique index exists.
    public func currentPinsPerAccount() throws -> PinsPerAccount {
        try writer.read { db in try Self.hasOnePinIndex(db) ? .one : .many }
    }

    private static func hasOnePinIndex(_ db: Database) throws -> Bool {
        try Int.fetchOne(
            db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?",
            arguments: [SharedSchema.onePinIndexName]) == 1
    }
}
