import Foundation

/// Which backend the server's tests run on: SQLite by default, PostgreSQL when
/// `ONTHEMAP_TEST_DATABASE=postgres` (`make test` runs the server's suite both ways).
public enum TestDatabase {
    /// True when this test run targets PostgreSQL.
    public static var usesPostgres: Bool {
        ProcessInfo.processInfo.environment["ONTHEMAP_TEST_DATABASE"] == "postgres"
    }

    /// A new, empty database for one test: a SQLite file in `directory`, or a new database in the
    /// test cluster. What `--database` takes.
    public static func fresh(in directory: TemporaryDirectory, name: String = "onthemap.sqlite") throws -> String {
        usesPostgres ? try PostgresTestServer.shared().createDatabase() : directory.file(name)
    }
}
