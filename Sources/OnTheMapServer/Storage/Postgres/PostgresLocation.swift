import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL database named by a `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=…]` URL.
///
/// The password may also come from `PGPASSWORD`; it never appears in `description`.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// `disable` (default), `prefer` or `require`.
    public var sslMode: String

    /// Parses the URL; throws `StorageError.invalidURL` with what is wrong.
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw StorageError.invalidURL("The database URL must look like postgres://USER@HOST:PORT/DATABASE.")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StorageError.invalidURL("The database URL names no user: postgres://USER@HOST:PORT/DATABASE.")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else {
            throw StorageError.invalidURL("The database URL names no database: postgres://USER@HOST:PORT/DATABASE.")
        }
        self.host = host
        port = components.port ?? 5432
        username = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"]
        self.database = database.removingPercentEncoding ?? database
        sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        guard ["disable", "prefer", "require"].contains(sslMode) else {
            throw StorageError.invalidURL("sslmode must be disable, prefer or require, not \(sslMode).")
        }
    }

    public var description: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(username)@\(hostPart):\(port)/\(database)"
    }
}

extension PostgresLocation {
    /// How long a connection may take to open, the start-up handshake included.
    static let connectTimeout: Duration = .seconds(5)

    /// Whether `sslMode` asks for TLS: nil for none, true when required, false when preferred.
    private var tlsRequired: Bool? {
        switch sslMode {
        case "require": true
        case "prefer": false
        default: nil
        }
    }

    /// The pool's configuration.
    func poolConfiguration(maximumConnections: Int) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch tlsRequired {
            case true?: .require(.makeClientConfiguration())
            case false?: .prefer(.makeClientConfiguration())
            case nil: .disable
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.connectTimeout = Self.connectTimeout
        configuration.options.additionalStartupParameters = [("application_name", PostgresConnectionRole.pool.rawValue)]
        return configuration
    }

    /// The configuration of one connection outside the pool (the change watch's, a probe's), with
    /// the pool's TLS mode.
    func connectionConfiguration(_ role: PostgresConnectionRole) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch tlsRequired {
            case true?: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case false?: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case nil: .disable
            }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = TimeAmount(Self.connectTimeout)
        configuration.options.additionalStartupParameters = [("application_name", role.rawValue)]
        return configuration
    }
}
