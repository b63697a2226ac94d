import Foundation

/// A temp directory, a database (a SQLite file there, or a PostgreSQL database when the tests run on
/// PostgreSQL: `TestDatabase`) and a running `onthemap-server` on it: the upstream of a test.
public final class ServerFixture: @unchecked Sendable {
    public let directory: TemporaryDirectory
    /// The database: a SQLite file or a `postgres://` URL, as `--database` takes it.
    public let databasePath: String
    public private(set) var server: ServerProcess
    private let serverArguments: [String]

    /// Starts a server on a new database; `arguments` go to `serve` (e.g. `--open-writes`).
    public init(arguments: [String] = []) throws {
        directory = try TemporaryDirectory(prefix: "onthemap-server")
        databasePath = try TestDatabase.fresh(in: directory)
        serverArguments = arguments
        server = try ServerProcess.start(databasePath: databasePath, arguments: arguments)
    }

    /// Base URL of the running server's API.
    public var baseURL: String { server.baseURL }

    /// Adds a password account through `onthemap-server user add` and returns its key.
    @discardableResult
    public func addUser(email: String, password: String, first: String = "Grace", last: String = "Hopper") throws
        -> String
    {
        let result = try runCommand(
            BuiltProducts.path("onthemap-server"),
            ["user", "add", "--database", databasePath, "--email", email, "--first", first, "--last", last,
             "--password-stdin", "--bcrypt-cost", "4"],
            stdin: password + "\n")
        guard result.status == 0, let key = result.stdout.firstMatch(of: /account key (\d+)/)?.1 else {
            throw ServerProcessError(message: "user add failed (\(result.status)): \(result.stderr)")
        }
        return String(key)
    }

    /// Stops the server (the database stays), e.g. to test an unreachable upstream.
    @discardableResult
    public func stopServer() -> Int32 {
        server.stop()
    }

    /// Starts the server again on the same database and port.
    public func restartServer() throws {
        server = try ServerProcess.start(databasePath: databasePath, port: server.port, arguments: serverArguments)
    }

    /// Stops the server and deletes the directory.
    public func tearDown() {
        server.stop()
        directory.remove()
    }

    deinit {
        tearDown()
    }
}

extension ServerFixture {
    /// Runs `onthemap-server seed --demo` on the fixture's database; returns the demo account's key.
    @discardableResult
    public func seedDemo(count: Int = 150) throws -> String {
        let result = try runCommand(
            BuiltProducts.path("onthemap-server"),
            ["seed", "--database", databasePath, "--demo", "--count", String(count), "--bcrypt-cost", "4"])
        guard result.status == 0, let key = result.stdout.firstMatch(of: /key (\d+)/)?.1 else {
            throw ServerProcessError(message: "seed failed (\(result.status)): \(result.stderr)")
        }
        return String(key)
    }
}
