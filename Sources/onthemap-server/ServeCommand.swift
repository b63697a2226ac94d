import ArgumentParser
import Foundation
import Hummingbird
import Logging
import OnTheMapServer
import OnTheMapSystemd

/// `onthemap-server serve`: runs the HTTP API until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the OnTheMap API over HTTP (routes under /v1).")

    @OptionGroup var database: DatabaseOption
    @OptionGroup var operationsOptions: OperationsOptions

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 8080

    @Flag(help: "Accept POST/PUT /StudentLocation without a session, as the original service did.")
    var openWrites = false

    @Option(help: "Session lifetime in seconds.")
    var sessionLifetime = 14 * 24 * 3600

    @Option(help: "Graph API /me-compatible URL that verifies Facebook access tokens; without it Facebook login is refused.")
    var facebookVerifyURL: String?

    @Option(help: "Failed logins allowed per account per 15 minutes.")
    var maxLoginFailures = 5

    @Option(help: "Login attempts allowed per client address per minute.")
    var maxLoginAttemptsPerAddress = 30

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "onthemap-server")
        let configuration = ServerConfiguration(
            host: host,
            port: port,
            openWrites: openWrites,
            sessionLifetime: .seconds(sessionLifetime),
            facebookVerifyURL: facebookVerifyURL,
            loginLimits: LoginRateLimits(
                failuresPerAccount: maxLoginFailures, attemptsPerAddress: maxLoginAttemptsPerAddress)
        )
        let operations = try operationsOptions.makeOperations()
        let db = try database.open()
        let app = buildApplication(configuration: configuration, database: db, logger: logger, operations: operations) { url in
            // Scripts and tests wait for this line to learn the URL (and the port, when 0 was asked for).
            FileHandle.standardOutput.write(Data("onthemap-server listening on \(url)\n".utf8))
            SystemdNotifier().serving(at: url)
        }
        try await ServerLifecycle.run(app, host: host, port: port, database: db, logger: logger)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
