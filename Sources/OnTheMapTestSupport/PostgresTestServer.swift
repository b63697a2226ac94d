import Foundation

/// A real PostgreSQL 15 cluster for tests: `initdb` and `pg_ctl` in a temporary data directory, as the
/// `postgres` user when the tests run as root, listening on a free loopback port. One cluster per test
/// process, started on first use and stopped when the process exits; each test gets its own database.
public final class PostgresTestServer: @unchecked Sendable {
    /// Where Debian keeps the server binaries; `ONTHEMAP_PG_BIN` overrides it.
    public static var binDirectory: String {
        ProcessInfo.processInfo.environment["ONTHEMAP_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
    }

    /// Whether PostgreSQL is installed here; tests that need it are skipped (visibly) when it is not.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: binDirectory + "/initdb")
            && FileManager.default.isExecutableFile(atPath: binDirectory + "/pg_ctl")
    }

    /// The cluster, started on first use; throws if it cannot start.
    public static func shared() throws -> PostgresTestServer {
        try lock.withLock {
            if let server = started { return server }
            let server = try PostgresTestServer()
            started = server
            atexit { PostgresTestServer.started?.stop() }
            return server
        }
    }

    /// A new database in the shared cluster, made off Swift's cooperative threads: starting the cluster
    /// takes seconds, and blocking those threads would stall every other test meanwhile.
    public static func newDatabase() async throws -> String {
        try await onOwnThread { try shared().createDatabase() }
    }

    /// A cluster of the caller's own, to stop and start (the shared one serves other tests); `stop()` it.
    public static func startPrivate() throws -> PostgresTestServer {
        try PostgresTestServer()
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: PostgresTestServer?

    public let port: Int
    /// The role tests connect as (a superuser of this throwaway cluster).
    public let user = "onthemap"
    /// The one role that logs in with a password (scram-sha-256), once a test creates it: for the
    /// wrong-password refusal (28P01). Every other role is trusted.
    public static let passwordRole = "password_checked"
    private let directory: TemporaryDirectory
    private let runAsPostgres: Bool
    private let counter = NSLock()
    private var databasesMade = 0

    private init() throws {
        guard Self.isAvailable else {
            throw ServerProcessError(message: "PostgreSQL is not installed (no \(Self.binDirectory)/initdb)")
        }
        directory = try TemporaryDirectory(prefix: "onthemap-pg")
        runAsPostgres = getuid() == 0
        if runAsPostgres {
            // initdb refuses to run as root: the cluster belongs to the postgres user.
            let chown = try spawnAndWait("/bin/chown", ["postgres:postgres", directory.path])
            guard chown.status == 0 else { throw ServerProcessError(message: "chown: \(chown.stderr)") }
        }
        let data = directory.file("data")
        let initdb = try Self.run(
            "initdb", ["-D", data, "-U", user, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
            asPostgres: runAsPostgres, in: directory.path)
        guard initdb.status == 0 else {
            throw ServerProcessError(message: "initdb failed: \(initdb.stdout)\(initdb.stderr)")
        }
        // Every role is trusted but one, which must give its password (the first matching line rules).
        let hba = data + "/pg_hba.conf"
        let trusted = try String(contentsOfFile: hba, encoding: .utf8)
        try ("host all \(Self.passwordRole) 127.0.0.1/32 scram-sha-256\n" + trusted).write(
            toFile: hba, atomically: false, encoding: .utf8)
        // A port held by nothing at the moment; a clash with a parallel run is retried on another.
        var lastError = ""
        for _ in 0..<5 {
            let candidate = try FreePort.pick()
            let options = "-p \(candidate) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off "
                + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
            let start = try Self.run(
                "pg_ctl", ["-D", data, "-l", directory.file("server.log"), "-o", options, "-w", "-t", "60", "start"],
                asPostgres: runAsPostgres, in: directory.path)
            if start.status == 0 {
                port = candidate
                return
            }
            lastError = start.stdout + start.stderr
                + ((try? String(contentsOfFile: directory.file("server.log"), encoding: .utf8)) ?? "")
        }
        directory.remove()
        throw ServerProcessError(message: "pg_ctl start failed: \(lastError)")
    }

    /// A new, empty database; returns its URL (`postgres://onthemap@127.0.0.1:PORT/NAME`).
    public func createDatabase() throws -> String {
        let name = counter.withLock {
            databasesMade += 1
            return "t\(getpid())_\(databasesMade)_\(UInt32.random(in: 0...UInt32.max))"
        }
        let result = try run(
            "createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", user, name])
        guard result.status == 0 else { throw ServerProcessError(message: "createdb failed: \(result.stderr)") }
        return url(database: name)
    }

    /// The URL of a database in this cluster.
    public func url(database: String) -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)"
    }

    /// Runs `psql -c SQL` against a database, returning its unaligned output.
    public func psql(_ url: String, _ sql: String) throws -> CommandResult {
        let name = String(url.split(separator: "/").last ?? "postgres")
        return try run("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", name, "-At", "-c", sql])
    }

    /// Stops the cluster (fast shutdown) and deletes its directory.
    public func stop() {
        try? thaw()  // a frozen cluster would not stop
        _ = try? run("pg_ctl", ["-D", directory.file("data"), "-m", "fast", "-w", "stop"])
        directory.remove()
    }

    /// Stops the cluster but keeps its data, to test a lost database; `resume()` brings it back.
    ///
    /// An immediate stop, as a crash is (connections dropped, nothing said to them), after a
    /// checkpoint: the cluster runs with `synchronous_commit=off`, so without one the stop lost the
    /// last fraction of a second's commits, and a test that paused right after the server made its
    /// schema found the table gone afterwards ("relation studentlocation does not exist"), which is
    /// not the outage under test. (A fast stop instead tells each connection it is terminated, which
    /// is another outage than a crash, with other errors.)
    public func pause() throws {
        _ = try run("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", "postgres", "-c", "CHECKPOINT"])
        let result = try run("pg_ctl", ["-D", directory.file("data"), "-m", "immediate", "-w", "stop"])
        guard result.status == 0 else { throw ServerProcessError(message: "pg_ctl stop: \(result.stderr)") }
    }

    /// Starts a paused cluster on its port again.
    public func resume() throws {
        let options = "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
        let result = try run(
            "pg_ctl", ["-D", directory.file("data"), "-l", directory.file("server.log"), "-o", options, "-w", "start"])
        guard result.status == 0 else { throw ServerProcessError(message: "pg_ctl start: \(result.stderr)") }
    }

    /// Stops every process of the cluster with SIGSTOP: connections stay open and new ones are
    /// accepted by the kernel, but nothing answers — a database that hangs rather than one that is
    /// gone. `thaw()` lets it go on.
    public func freeze() throws {
        let postmaster = try postmasterPID()
        // The postmaster first, so it starts no new backend while its children stop.
        for pid in [postmaster] + RunningProcess.descendants(of: postmaster) { kill(pid, SIGSTOP) }
    }

    /// Lets a frozen cluster go on.
    public func thaw() throws {
        let postmaster = try postmasterPID()
        for pid in RunningProcess.descendants(of: postmaster) + [postmaster] { kill(pid, SIGCONT) }
    }

    /// The postmaster's process id, the first line of its pid file.
    private func postmasterPID() throws -> pid_t {
        let file = directory.file("data/postmaster.pid")
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
            let first = text.split(separator: "\n").first, let pid = pid_t(first)
        else { throw ServerProcessError(message: "no running cluster (\(file))") }
        return pid
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> CommandResult {
        try Self.run(tool, arguments, asPostgres: runAsPostgres, in: directory.path)
    }

    /// Runs a PostgreSQL tool in the cluster's folder (as `postgres` when the tests run as root: the
    /// folder is that user's, where the test's own working directory may be closed to it).
    private static func run(_ tool: String, _ arguments: [String], asPostgres: Bool, in directory: String) throws
        -> CommandResult
    {
        let path = binDirectory + "/" + tool
        if asPostgres {
            return try spawnAndWait("/sbin/runuser", ["-u", "postgres", "--", path] + arguments, workingDirectory: directory)
        }
        return try spawnAndWait(path, arguments, workingDirectory: directory)
    }
}
