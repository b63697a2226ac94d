import Foundation
import OnTheMapTestSupport
import Testing

/// A refusal from PostgreSQL that waiting will not change — no such database (3D000), no such role
/// (28000), a wrong password (28P01), no permission to connect (42501) — ends the command at once in one line that quotes
/// PostgreSQL, even with `--wait-for-database`. It used to be 15 `PSQLError(…)` lines and, 10 s
/// later, the blame on a timeout.
@Suite(
    "PostgreSQL refusals that need an operator", .ownThreads,
    .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed (no /usr/lib/postgresql/15/bin/initdb)"))
struct PostgresRefusalTests {
    let server = BuiltProducts.path("onthemap-server")

    @Test func eachRefusalIsOneLineQuotingPostgreSQL() async throws {
        let cluster = try PostgresTestServer.shared()
        let existing = try await PostgresTestServer.newDatabase()
        let name = String(existing.split(separator: "/").last!)
        let outsider = "outsider\(getpid())"
        let granted = try cluster.psql(
            existing, "CREATE ROLE \(outsider) LOGIN; REVOKE CONNECT ON DATABASE \(name) FROM PUBLIC")
        #expect(granted.status == 0, "\(granted.stderr)")
        let cases: [(String, String)] = [
            (cluster.url(database: "nosuchdb"), #"database "nosuchdb" does not exist"#),
            ("postgres://nosuchrole@127.0.0.1:\(cluster.port)/\(name)", #"role "nosuchrole" does not exist"#),
            ("postgres://\(outsider)@127.0.0.1:\(cluster.port)/\(name)", "permission denied for database"),
        ]
        for (url, quoted) in cases {
            for arguments in [["serve", "--port", "0", "--wait-for-database"], ["user", "list"]] {
                // Under `timeout`: a serve that waited for a database that will never come would be
                // ended by it (124).
                let result = try runCommand("/usr/bin/timeout", ["60", server] + arguments + ["--database", url])
                #expect(result.status == 1, "\(arguments[0]) on \(url): \(result.status) \(result.stderr)")
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1, "one line: \(result.stderr)")
                #expect(
                    result.stderr.hasPrefix("onthemap-server: Cannot open the database at \(url): PostgreSQL refused the connection: \(quoted)"),
                    "\(result.stderr)")
                #expect(!result.stderr.contains("PSQLError") && !result.stderr.contains("did not answer"), "\(result.stderr)")
            }
        }
    }

    /// A wrong password is refused the same way, and the line names the database without the
    /// password that was given.
    @Test func aWrongPasswordIsOneLineWithoutThePassword() async throws {
        let cluster = try PostgresTestServer.shared()
        let existing = try await PostgresTestServer.newDatabase()
        let name = String(existing.split(separator: "/").last!)
        let role = PostgresTestServer.passwordRole
        let made = try cluster.psql(
            existing,
            "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(role)') THEN "
                + "CREATE ROLE \(role) LOGIN PASSWORD 'the-right-one'; END IF; END $$")
        #expect(made.status == 0, "\(made.stderr)")
        let given = "wrong-\(UInt32.random(in: 0...UInt32.max))"
        let url = "postgres://\(role):\(given)@127.0.0.1:\(cluster.port)/\(name)"
        for arguments in [["serve", "--port", "0", "--wait-for-database"], ["user", "list"]] {
            let result = try runCommand("/usr/bin/timeout", ["60", server] + arguments + ["--database", url])
            #expect(result.status == 1, "\(arguments[0]): \(result.status) \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(
                result.stderr.contains(#"PostgreSQL refused the connection: password authentication failed for user "\#(role)""#),
                "\(result.stderr)")
            #expect(!result.stderr.contains(given) && !result.stdout.contains(given), "the password is shown: \(result.stderr)")
        }
    }
}
