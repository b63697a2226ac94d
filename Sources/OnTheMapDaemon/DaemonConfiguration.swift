import FoundationEssentials
import Logging
import OnTheMapAPI
import OnTheMapModels
import OnTheMapSupport
import SystemPackage

/// Everything `onthemapd` can be told. Flags win over the environment, which wins over the file,
/// which wins over the defaults.
public struct DaemonConfiguration: Sendable, Hashable {
    public var socketPath: String
    public var apiURL: String
    /// How many of the newest locations to cache (pages through the API for more than one page).
    public var cacheSize: Int
    /// Time between refreshes (jittered by ±10%).
    public var refreshInterval: Duration
    /// Close connections idle this long, unless subscribed; zero never closes them.
    public var idleTimeout: Duration
    public var logLevel: Logger.Level
    /// Where `geocode` and `postPin` look places up.
    public var geocoder: GeocoderSetting = .offline
    public var paths: StatePaths

    /// Creates a configuration.
    public init(
        socketPath: String, apiURL: String = APIConfiguration.udacityBaseURL, cacheSize: Int = 100,
        refreshInterval: Duration = .seconds(300), idleTimeout: Duration = .seconds(300),
        logLevel: Logger.Level = .info,
        paths: StatePaths
    ) {
        self.socketPath = socketPath
        self.apiURL = apiURL
        self.cacheSize = cacheSize
        self.refreshInterval = refreshInterval
        self.idleTimeout = idleTimeout
        self.logLevel = logLevel
        self.paths = paths
    }

    /// The settings each source can give, by their file names (`api-url = …`).
    public static let keys = [
        "socket", "api-url", "cache-size", "refresh-interval", "idle-timeout", "log-level", "geocoder", "nominatim-url",
        "geocoder-fallback",
    ]

    /// The numbers each numeric setting takes (the options' `.unconditional` parsing lets `-1` reach them).
    static let cacheSizeRange = NumberRange(1...100_000)
    static let refreshIntervalRange = NumberRange(atLeast: 1, unit: .seconds)
    static let idleTimeoutRange = NumberRange(atLeast: 1, unit: .seconds, zero: "never")

    /// One setting as given: its text, and where it came from in the words a message names it by
    /// ("--cache-size", "ONTHEMAP_CACHE_SIZE", "/etc/onthemapd.conf, line 3: cache-size").
    struct Given {
        var text: String
        var source: String
        var fromCommandLine = false

        /// "SOURCE must be …" about this setting: a usage error when it came from the command line.
        func refused(_ rule: String) -> ConfigurationError {
            ConfigurationError("\(source) \(rule) (got \(text)).", fromCommandLine: fromCommandLine)
        }

        /// The whole number `range` allows, else the error naming the range ("must be a whole
        /// number" first, for text that is none: "must be 1 second or more (got abc)" read as if
        /// "abc" were too small).
        func number(in range: NumberRange<Int>) throws(ConfigurationError) -> Int {
            guard let number = Int(text) else { throw refused("must be a whole number, and \(range.requirement.dropFirst("must be ".count))") }
            guard range.contains(number) else { throw refused(range.requirement) }
            return number
        }
    }

    /// Merges the sources; throws a message naming the bad setting and where it came from.
    // Not swift-configuration's ConfigReader (weighed for issue 17): it has no provider for this
    // file's `key = value` lines (JSON, YAML, plist, or `.env` files of upper-case variables), it
    // does not say which provider gave a bad value (these messages name the flag, variable or file
    // line), and its reloading provider polls the file on a timer where the daemon reloads on SIGHUP
    // and otherwise sleeps. Flags still come from ArgumentParser (help, man page, completions).
    public static func resolve(
        flags: [String: String], environment: [String: String], fileText: String?, paths: StatePaths,
        defaultSocketPath: String
    ) throws -> DaemonConfiguration {
        let file = try fileText.map { try parseFile($0, path: paths.configFile.string) } ?? [:]
        func value(_ key: String) -> Given? {
            if let flag = flags[key] { return Given(text: flag, source: "--\(key)", fromCommandLine: true) }
            let variable = "ONTHEMAP_" + key.uppercased().replacing("-", with: "_")
            if let env = environment[variable], !env.isEmpty { return Given(text: env, source: variable) }
            if let fromFile = file[key] {
                return Given(text: fromFile.value, source: "\(paths.configFile), line \(fromFile.line): \(key)")
            }
            return nil
        }
        var configuration = DaemonConfiguration(socketPath: defaultSocketPath, paths: paths)
        if let socket = value("socket") { configuration.socketPath = socket.text }
        if let url = value("api-url") {
            guard url.text.hasPrefix("http://") || url.text.hasPrefix("https://") else {
                throw url.refused("must be an http:// or https:// URL")
            }
            configuration.apiURL = url.text
        }
        if let size = try value("cache-size")?.number(in: cacheSizeRange) { configuration.cacheSize = size }
        if let seconds = try value("refresh-interval")?.number(in: refreshIntervalRange) {
            configuration.refreshInterval = .seconds(seconds)
        }
        if let seconds = try value("idle-timeout")?.number(in: idleTimeoutRange) { configuration.idleTimeout = .seconds(seconds) }
        if let given = value("log-level") {
            guard let level = Logger.Level(rawValue: given.text) else {
                throw given.refused("must be one of trace, debug, info, notice, warning, error, critical")
            }
            configuration.logLevel = level
        }
        configuration.geocoder = try resolveGeocoder(value)
        return configuration
    }

    private static func resolveGeocoder(_ value: (String) -> Given?) throws -> GeocoderSetting {
        let fallback: Bool
        switch value("geocoder-fallback") {
        case nil: fallback = true
        case let given? where given.text == "offline": fallback = true
        case let given? where given.text == "none": fallback = false
        case let given?: throw given.refused("must be offline or none")
        }
        switch value("geocoder") {
        case nil:
            return .offline
        case let given? where given.text == "offline":
            return .offline
        case let given? where given.text == "nominatim":
            let url = value("nominatim-url") ?? Given(text: GeocoderSetting.publicNominatimURL, source: "nominatim-url")
            guard url.text.hasPrefix("http://") || url.text.hasPrefix("https://") else {
                throw url.refused("must be an http:// or https:// URL")
            }
            return .nominatim(url: url.text, fallbackToOffline: fallback)
        case let given?:
            throw given.refused("must be offline or nominatim")
        }
    }

    /// The file's settings (`SettingsLines`) by key, each among `keys`; the last of a repeated key wins.
    static func parseFile(_ text: String, path: String) throws -> [String: SettingsLines.Setting] {
        let known = keys.joined(separator: ", ")
        let lines: [SettingsLines.Setting]
        do {
            lines = try SettingsLines.parse(text)
        } catch {
            throw ConfigurationError("\(path), line \(error.line): expected `key = value`; the settings are \(known).")
        }
        var settings: [String: SettingsLines.Setting] = [:]
        for setting in lines {
            guard keys.contains(setting.key) else {
                let meant = NearestWord.to(setting.key, among: keys).map { " (did you mean \($0)?)" } ?? ""
                throw ConfigurationError(
                    "\(path), line \(setting.line): unknown setting \"\(setting.key)\"\(meant); the settings are \(known).")
            }
            settings[setting.key] = setting
        }
        return settings
    }
}
