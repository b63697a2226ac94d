import ArgumentParser
import FoundationEssentials
import Logging
import OnTheMapDaemon
import OnTheMapRPC
import OnTheMapSupport
import SystemPackage

/// `onthemapd`: the per-user OnTheMap daemon.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onthemapd",
        abstract:
            "The OnTheMap daemon: holds the session and a cache of student locations, and answers JSON-RPC 2.0 on a Unix socket.",
        discussion: """
            Settings come from flags, then the environment (ONTHEMAP_SOCKET, ONTHEMAP_API_URL, ONTHEMAP_CACHE_SIZE, \
            ONTHEMAP_REFRESH_INTERVAL, ONTHEMAP_IDLE_TIMEOUT, ONTHEMAP_LOG_LEVEL, ONTHEMAP_GEOCODER, \
            ONTHEMAP_NOMINATIM_URL, ONTHEMAP_GEOCODER_FALLBACK), then \
            $XDG_CONFIG_HOME/onthemap/onthemapd.conf (`key = value` lines), then defaults. \
            SIGHUP applies a new refresh interval, idle timeout and cache size (the rest at the next start); \
            SIGTERM stops after answering requests in flight.
            """,
        version: Daemon.version
    )

    @Option(help: "Unix socket path (default: $XDG_RUNTIME_DIR/onthemap/onthemapd.sock).")
    var socket: String?

    @Option(help: "Base URL of the OnTheMap API (default: https://onthemap-api.udacity.com/v1).")
    var apiURL: String?

    // `.unconditional`, as every number: "-1" reaches the range check (DaemonConfiguration's, which the
    // environment and the file share) instead of reading as a flag ("Missing value").
    @Option(parsing: .unconditional, help: "How many of the newest student locations to cache, 1 to 100000 (default 100).")
    var cacheSize: Int?

    @Option(parsing: .unconditional, help: "Seconds between refreshes (default 300).")
    var refreshInterval: Int?

    @Option(parsing: .unconditional, help: "Seconds before an idle, unsubscribed connection is closed; 0 never (default 300).")
    var idleTimeout: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).")
    var logLevel: String?

    @Option(help: "offline (the built-in GeoNames gazetteer, default) or nominatim.")
    var geocoder: String?

    @Option(help: "Nominatim server for --geocoder nominatim (default: https://nominatim.openstreetmap.org).")
    var nominatimURL: String?

    @Option(help: "When Nominatim fails: offline (answer from the gazetteer, default) or none (report the error).")
    var geocoderFallback: String?

    @Option(help: "Configuration file (default: $XDG_CONFIG_HOME/onthemap/onthemapd.conf).")
    var config: String?

    static func main(activatedSocket: Int32?, concurrencyOnEventLoops: Bool) async {
        do {
            try await parse().run(activatedSocket: activatedSocket, concurrencyOnEventLoops: concurrencyOnEventLoops)
        } catch {
            // As ArgumentParser ends (help and the version on stdout, a usage error with the usage
            // text and 64), every message after "onthemapd: " rather than its "Error: ".
            ArgumentFailure.exit(error, of: DaemonCommand.self, prefix: "onthemapd: ")
        }
    }

    func run(activatedSocket: Int32?, concurrencyOnEventLoops: Bool) async throws {
        let configuration = try resolveConfiguration()
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in
            var handler = RedactingLogHandler(StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "onthemapd")
        EventLoopConcurrency.report(installed: concurrencyOnEventLoops, to: logger)
        try await DaemonRunner.run(
            configuration: configuration, activatedSocket: activatedSocket, logger: logger,
            reload: { try resolveConfiguration() })
    }

    /// Flags over environment over file over defaults. A bad option is a usage error (64, with the
    /// usage text); a bad variable or line of the file, or a file that cannot be read, is said alone
    /// and stops the start (1): the usage text is about the command line.
    func resolveConfiguration() throws -> DaemonConfiguration {
        let environment = ProcessInfo.processInfo.environment
        var paths = StatePaths.fromEnvironment(environment)
        if let config { paths.configFile = FilePath(config) }
        // Keyed by option name: `resolve` reports `--key`, and looks up ONTHEMAP_KEY and the file's `key`.
        let flags: [String: String] = [
            "socket": socket, "api-url": apiURL, "cache-size": cacheSize.map(String.init),
            "refresh-interval": refreshInterval.map(String.init), "idle-timeout": idleTimeout.map(String.init),
            "log-level": logLevel, "geocoder": geocoder, "nominatim-url": nominatimURL,
            "geocoder-fallback": geocoderFallback,
        ].compactMapValues { $0 }
        let fileText: String?
        if FileManager.default.fileExists(atPath: paths.configFile.string) {
            guard let text = try? String(contentsOfFile: paths.configFile.string, encoding: .utf8) else {
                throw ConfigurationError("Cannot read \(paths.configFile): it is not readable, or not UTF-8 text.")
            }
            fileText = text
        } else if config != nil {
            throw ConfigurationError("No configuration file at \(paths.configFile).")
        } else {
            fileText = nil
        }
        do {
            return try DaemonConfiguration.resolve(
                flags: flags, environment: environment, fileText: fileText, paths: paths,
                defaultSocketPath: SocketPath.resolve(flag: nil, environment: { environment[$0] }))
        } catch let error as ConfigurationError where error.fromCommandLine {
            throw ValidationError(error.description)
        }
    }
}
