import Foundation
import PostgresNIO

/// The PostgreSQL schema: numbered migrations, applied once each, under a lock so replicas starting
/// together do not race; and the pin rule (the unique index on `uniqueKey`).
struct PostgresSchema: Sendable {
    let database: PostgresDatabase

    /// Any constant: the advisory lock that serializes migrations across replicas.
    static let migrationLock: Int64 = 0x6F6E_7468_656D_6170

    /// The pins' version: the sum of its rows (the first one, and the 16 of migration 4), which
    /// grows with every change that commits.
    static let locationsVersion: PostgresQuery = """
        SELECT COALESCE(sum(version), 0)::BIGINT FROM changeCounter
        WHERE name = 'studentLocation' OR name LIKE 'studentLocation:%'
        """

    /// Each migration's statements, in order; never edit one that has shipped, add another.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE account (
                id BIGSERIAL PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                email TEXT,
                passwordHash TEXT,
                facebookID TEXT UNIQUE,
                firstName TEXT NOT NULL,
                lastName TEXT NOT NULL,
                nickname TEXT NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL,
                disabled BOOLEAN NOT NULL DEFAULT FALSE
            )
            """,
            // Emails are unique and matched without regard to case, as SQLite's NOCASE column does.
            "CREATE UNIQUE INDEX account_email ON account (lower(email))",
            """
            CREATE TABLE session (
                id TEXT PRIMARY KEY,
                xsrfToken TEXT NOT NULL UNIQUE,
                accountKey TEXT NOT NULL REFERENCES account (key) ON DELETE CASCADE,
                createdAt TIMESTAMPTZ NOT NULL,
                expiresAt TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX session_accountKey ON session (accountKey)",
            "CREATE INDEX session_expiresAt ON session (expiresAt)",
            """
            CREATE TABLE studentLocation (
                objectId TEXT PRIMARY KEY,
                uniqueKey TEXT NOT NULL,
                firstName TEXT NOT NULL,
                lastName TEXT NOT NULL,
                mapString TEXT NOT NULL,
                mediaURL TEXT NOT NULL,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL,
                updatedAt TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX studentLocation_uniqueKey ON studentLocation (uniqueKey)",
            "CREATE INDEX studentLocation_updatedAt ON studentLocation (updatedAt)",
            SharedSchema.onePinIndex,
            SharedSchema.loginThrottle,
            SharedSchema.changeCounter,
            "INSERT INTO changeCounter (name, version) VALUES ('studentLocation', 0)",
            """
            CREATE FUNCTION studentLocation_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE changeCounter SET version = version + 1 WHERE name = 'studentLocation';
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER studentLocation_bumps_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
            ON studentLocation FOR EACH STATEMENT EXECUTE FUNCTION studentLocation_bump_version()
            """,
        ],
        // Replicas keep the newest pins in memory until told of a change (PostgresChangeWatch): the
        // trigger also notifies, and PostgreSQL delivers the notification when the write commits.
        [
            """
            CREATE OR REPLACE FUNCTION studentLocation_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE changeCounter SET version = version + 1 WHERE name = 'studentLocation';
                PERFORM pg_notify('\(PostgresChangeWatch.channel)', '');
                RETURN NULL;
            END $$
            """
        ],
        // A statement that changes no pin (a PUT refused by its WHERE, the INSERT half of an upsert
        // that updated) bumps and notifies nothing, so no replica re-reads the list for it: the
        // triggers look at their transition tables. PostgreSQL allows a transition table only on a
        // trigger of one event, hence one trigger per event (TRUNCATE has none: it always bumps).
        [
            """
            CREATE FUNCTION studentLocation_bump_version_if_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM changed) THEN
                    UPDATE changeCounter SET version = version + 1 WHERE name = 'studentLocation';
                    PERFORM pg_notify('\(PostgresChangeWatch.channel)', '');
                END IF;
                RETURN NULL;
            END $$
            """,
            "DROP TRIGGER studentLocation_bumps_version ON studentLocation",
        ] + ["INSERT": "NEW", "UPDATE": "NEW", "DELETE": "OLD"].sorted(by: { $0.key < $1.key }).map { event, table in
            """
            CREATE TRIGGER studentLocation_\(event.lowercased())_bumps_version AFTER \(event) ON studentLocation
            REFERENCING \(table) TABLE AS changed
            FOR EACH STATEMENT EXECUTE FUNCTION studentLocation_bump_version_if_changed()
            """
        } + [
            """
            CREATE TRIGGER studentLocation_truncate_bumps_version AFTER TRUNCATE ON studentLocation
            FOR EACH STATEMENT EXECUTE FUNCTION studentLocation_bump_version()
            """
        ],
        // The version spread over 16 rows, one bumped per write: with one row, every pin write in
        // the cluster waited for the one before it to commit (docs/benchmarks.md). The row is the
        // writing connection's (its backend's pid), not a random one: a transaction of several
        // writes (restore, copy) then bumps one row, so two of them cannot lock rows in opposite
        // orders. The version is their sum (`locationsVersion`), and the first row stays in it, so
        // the version never goes back. Replicas older than this read only the first row: restart
        // them all once one has applied it (docs/DEPLOY.md).
        [
            """
            INSERT INTO changeCounter (name, version)
            SELECT 'studentLocation:' || shard, 0 FROM generate_series(0, 15) AS shard
            """,
            """
            CREATE OR REPLACE FUNCTION studentLocation_bump_version_if_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM changed) THEN
                    UPDATE changeCounter SET version = version + 1
                    WHERE name = 'studentLocation:' || (pg_backend_pid() % 16);
                    PERFORM pg_notify('\(PostgresChangeWatch.channel)', '');
                END IF;
                RETURN NULL;
            END $$
            """,
        ],
        // Where and when each session is used, for `session list`.
        [
            "ALTER TABLE session ADD COLUMN lastUsedAt TIMESTAMPTZ, ADD COLUMN clientAddress TEXT, ADD COLUMN userAgent TEXT"
        ],
    ]

    /// Applies the migrations not yet applied; returns how many duplicate pins they merged (none yet:
    /// the first PostgreSQL schema already has the rule) and whether the schema was created. A
    /// database without the schema is refused unless `ifNew` is `.create`.
    func migrate(ifNew: NewDatabasePolicy, location: PostgresLocation) async throws -> (merged: Int, created: Bool) {
        try await database.transaction { connection, logger in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            // Under the lock: of replicas started together on an empty database, one creates it.
            let existing = try await connection.query(
                "SELECT to_regclass('schemamigration') IS NOT NULL", logger: logger
            ).collect().first?.decode(Bool.self) ?? false
            if !existing, ifNew == .refuse {
                throw StorageError.notADatabase(
                    "The PostgreSQL database \(location) holds no OnTheMap tables: check the URL, or create them "
                        + "with `onthemap-server migrate --create`.")
            }
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schemaMigration (version INTEGER PRIMARY KEY, appliedAt TIMESTAMPTZ NOT NULL)",
                logger: logger)
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schemaMigration", logger: logger)
                .decode(Int.self)
            {
                applied.insert(version)
            }
            // A newer server migrated this database: this one would misread it (the pins' version,
            // for one), so it stops rather than serve stale or wrong answers.
            if let newest = applied.max(), newest > Self.migrations.count {
                throw StorageError.unavailable(
                    "the database has schema migration \(newest), applied by a newer onthemap-server; this one knows "
                        + "\(Self.migrations.count): run the newer version")
            }
            for (index, statements) in Self.migrations.enumerated() where !applied.contains(index + 1) {
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO schemaMigration (version, appliedAt) VALUES (\(index + 1), \(Date()))", logger: logger)
                logger.info("applied PostgreSQL migration \(index + 1)")
            }
            return (0, !existing)
        }
    }

    /// Brings the pin rule in line with `policy`, as `AppDatabase.apply` does for SQLite.
    func apply(_ policy: PinsPerAccount) async throws -> Int {
        try await database.transaction { connection, logger in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            switch policy {
            case .one:
                guard !(try await Self.hasOnePinIndex(connection, logger)) else { return 0 }
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: SharedSchema.mergeDuplicatePins + " RETURNING objectId"), logger: logger
                ).collect()
                try await connection.query(PostgresQuery(unsafeSQL: SharedSchema.onePinIndex), logger: logger)
                return rows.count
            case .many:
                try await connection.query(
                    PostgresQuery(unsafeSQL: "DROP INDEX IF EXISTS \(SharedSchema.onePinIndexName)"), logger: logger)
                return 0
            }
        }
    }

    /// The rule the database keeps now.
    func currentPinsPerAccount() async throws -> PinsPerAccount {
        try await database.run { client, logger in
            try await client.withConnection { connection in
                try await Self.hasOnePinIndex(connection, logger) ? .one : .many
            }
        }
    }

    private static func hasOnePinIndex(_ connection: PostgresConnection, _ logger: Logger) async throws -> Bool {
        let name = SharedSchema.onePinIndexName.lowercased()
        let rows = try await connection.query(
            "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = \(name)", logger: logger
        ).collect()
        return !rows.isEmpty
    }
}
