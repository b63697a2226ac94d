import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import OnTheMapServer
import OnTheMapSupport
import OnTheMapSystemd

/// `onthemap-server serve`: runs the HTTP API until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the OnTheMap API over HTTP (routes under /v1).")

    @OptionGroup var database: DatabaseOption
    @OptionGroup var operationsOptions: OperationsOptions
    @OptionGroup var webOptions: WebOptions

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "Port to listen on, from 1 to 65535; 0 picks a free one.")
    var port = 8080

    @Flag(help: "Create the database if there is none yet (a missing or empty file, or a PostgreSQL database without the tables); without it serve refuses, so a mistyped path is not a new, empty map.")
    var create = false

    @Option(parsing: .unconditional, help: "Most PostgreSQL connections this process opens.")
    var poolSize = 10

    @Flag(help: "Accept POST/PUT /StudentLocation without a session, as the original service did.")
    var openWrites = false

    @Option(help: "one: a POST from an account that has a pin moves it (default); many: every POST adds a pin, as upstream did.")
    var pinsPerAccount: PinsPerAccount = .one

    @Option(parsing: .unconditional, help: "Session lifetime in seconds.")
    var sessionLifetime = 14 * 24 * 3600

    @Option(help: "Graph API /me-compatible URL that verifies Facebook access tokens; without it Facebook login is refused.")
    var facebookVerifyURL: String?

    @Option(parsing: .unconditional, help: "Shortest password accepted where the server sets one (user add and user passwd apply the same key).")
    var minPasswordLength = PasswordPolicy.defaultMinimumLength

    @Option(parsing: .unconditional, help: "Failed logins allowed per account in a minute before it pauses for the rest of that minute; four times as many in an hour.")
    var maxLoginFailures = 5

    @Option(parsing: .unconditional, help: "Login attempts allowed per client address per minute.")
    var maxLoginAttemptsPerAddress = 30

    @Option(parsing: .unconditional, help: "Seconds a connection may stay silent (an unfinished request head, or idle between requests) before it is closed.")
    var idleTimeout = 30

    @Option(help: "A reverse proxy's address (repeatable) whose X-Forwarded-For names the client, for the per-address login limit.")
    var trustedProxy: [String] = []

    @Option(help: "X-Parse-Application-Id the Parse-era paths require (default: the one public On The Map clients send).")
    var parseApplicationId = ParseKeys.udacityApplicationID

    @Option(help: "X-Parse-REST-API-Key the Parse-era paths require (default: the one public On The Map clients send).")
    var parseRestApiKey = ParseKeys.udacityRESTAPIKey

    @Flag(help: "If PostgreSQL cannot be reached at start, retry every second instead of exiting.")
    var waitForDatabase = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. A line per request is at debug; --access-log is the per-request record.")
    var logLevel: Logger.Level = .info

    @Option(help: "Log lines as text, or json: one JSON object per line (for journald or Loki).")
    var logFormat: LogFormat = .text

    @Option(parsing: .unconditional, help: "Connections open at once; one more is answered 503 and closed.")
    var maxConnections = 10_000

    @Option(parsing: .unconditional, help: "MiB of request heads and bodies held at once, across connections, until each request is answered; a request that does not fit is answered 503.")
    var maxRequestMemory = 64

    @Option(parsing: .unconditional, help: "Seconds between checks of the database's integrity (SQLite's quick_check; one runs at start); 0: at start only.")
    var integrityCheckInterval = 300

    @Option(parsing: .unconditional, help: "Threads that serve connections, and as many that hash passwords (default: one of each per core). Replicas that share a machine divide its cores.")
    var threads: Int?

    /// The numbers each numeric option takes; the options are read with `.unconditional`, so `-1`
    /// reaches these checks as a number rather than reading as a flag.
    static let portRange = NumberRange(1...65535, zero: "any free port")
    static let secondsRange = NumberRange(atLeast: 1, unit: .seconds)
    static let countRange = NumberRange(atLeast: 1)
    static let threadsRange = NumberRange(1...256)
    static let requestMemoryRange = NumberRange(1...1_048_576, unit: .mib)
    static let integrityCheckRange = NumberRange(atLeast: 1, unit: .seconds, zero: "a check at start only")

    func validate() throws {
        try Self.portRange.validate(port, "--port")
        try Self.countRange.validate(poolSize, "--pool-size")
        try PasswordInput.minimumLengthRange.validate(minPasswordLength, "--min-password-length")
        try Self.countRange.validate(maxLoginFailures, "--max-login-failures")
        try Self.countRange.validate(maxLoginAttemptsPerAddress, "--max-login-attempts-per-address")
        try Self.secondsRange.validate(sessionLifetime, "--session-lifetime")
        try Self.secondsRange.validate(idleTimeout, "--idle-timeout")
        try Self.threadsRange.validate(threads, "--threads")
        try Self.countRange.validate(maxConnections, "--max-connections")
        try Self.requestMemoryRange.validate(maxRequestMemory, "--max-request-memory")
        try Self.integrityCheckRange.validate(integrityCheckInterval, "--integrity-check-interval")
    }

    func run() async throws {
        if let threads {
            // Before anything starts the shared event loops (Hummingbird's, PostgresNIO's) or the
            // thread pool that runs bcrypt: both are sized on first use.
            NIOSingletons.groupLoopCountSuggestion = threads
            NIOSingletons.blockingPoolThreadCountSuggestion = threads
        }
        logFormat.bootstrap(level: logLevel)
        let logger = Logger(label: "onthemap-server")
        FileLimit.raiseToHardLimit()
        // Before the database: an access log that cannot be opened must not leave a new database behind.
        let operations = try operationsOptions.makeOperations()
        let storage = try await database.open(
            pinsPerAccount: pinsPerAccount, ifNew: create ? .create : .refuse, poolSize: poolSize,
            waitForDatabase: waitForDatabase, logger: logger)
        logger.notice(
            "\(storage.wasCreated ? "created a new database" : "opened the database") \(storage.displayName)",
            metadata: ["database": "\(storage.displayName)", "new": "\(storage.wasCreated)"])
        if storage.mergedPins > 0 {
            logger.notice("one pin per account: merged \(storage.mergedPins) duplicate pins into each account's newest")
        }
        var configuration = ServerConfiguration.defaults
        configuration.host = host
        configuration.port = port
        configuration.openWrites = openWrites
        configuration.sessionLifetime = .seconds(sessionLifetime)
        configuration.facebookVerifyURL = facebookVerifyURL
        configuration.loginLimits = LoginRateLimits(
            failuresPerAccount: maxLoginFailures, attemptsPerAddress: maxLoginAttemptsPerAddress)
        configuration.idleTimeout = .seconds(idleTimeout)
        configuration.trustedProxies = Set(trustedProxy)
        configuration.parseKeys = ParseKeys(applicationID: parseApplicationId, restAPIKey: parseRestApiKey)
        configuration.web = webOptions.settings
        configuration.passwordPolicy = PasswordPolicy(minimumLength: minPasswordLength)
        configuration.maxConnections = maxConnections
        configuration.maxRequestMemory = maxRequestMemory * 1024 * 1024
        configuration.integrityCheckInterval = integrityCheckInterval > 0 ? .seconds(integrityCheckInterval) : nil
        let app = buildApplication(configuration: configuration, storage: storage, logger: logger, operations: operations) { url in
            // Scripts and tests wait for this line to learn the URL (and the port, when 0 was asked for).
            FileHandle.standardOutput.write(Data("onthemap-server listening on \(url)\n".utf8))
            SystemdNotifier().serving(at: url)
        }
        try await ServerLifecycle.run(app, host: host, port: port, storage: storage, logger: logger)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension LogFormat: ExpressibleByArgument {}
extension PinsPerAccount: ExpressibleByArgument {}
