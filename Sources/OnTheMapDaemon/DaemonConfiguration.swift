#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import OnTheMapAPI
import OnTheMapModels
import OnTheMapSupport

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
        let file = try fileText.map { try parseFile($0, path: paths.configFile) } ?? [:]
        func value(_ key: String) -> (String, String)? {
            if let flag = flags[key] { return (flag, "--\(key)") }
            let variable = "ONTHEMAP_" + key.uppercased().replacing("-", with: "_")
            if let env = environment[variable], !env.isEmpty { return (env, variable) }
            if let fromFile = file[key] { return (fromFile.value, "\(paths.configFile), line \(fromFile.line): \(key)") }
            return nil
        }
        func seconds(_ key: String, default fallback: Int, minimum: Int) throws -> Duration {
            guard let (text, source) = value(key) else { return .seconds(fallback) }
            guard let number = Int(text), number >= minimum else {
                throw ConfigurationError(
                    "\(source) must be a whole number of seconds, at least \(minimum) (got \(text)).")
            }
            return .seconds(number)
        }
        var configuration = DaemonConfiguration(socketPath: defaultSocketPath, paths: paths)
        if let (socket, _) = value("socket") { configuration.socketPath = socket }
        if let (url, source) = value("api-url") {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw ConfigurationError("\(source) must be an http:// or https:// URL (got \(url)).")
            }
            configuration.apiURL = url
        }
        if let (text, source) = value("cache-size") {
            guard let size = Int(text), (1...100_000).contains(size) else {
                throw ConfigurationError("\(source) must be a number from 1 to 100000 (got \(text)).")
            }
            configuration.cacheSize = size
        }
        configuration.refreshInterval = try seconds("refresh-interval", default: 300, minimum: 1)
        configuration.idleTimeout = try seconds("idle-timeout", default: 300, minimum: 0)
        if let (text, source) = value("log-level") {
            guard let level = Logger.Level(rawValue: text) else {
                throw ConfigurationError(
                    "\(source) must be one of trace, debug, info, notice, warning, error, critical.")
            }
            configuration.logLevel = level
        }
        configuration.geocoder = try resolveGeocoder(value)
        return configuration
    }

    private static func resolveGeocoder(_ value: (String) -> (String, String)?) throws -> GeocoderSetting {
        let fallback: Bool
        switch value("geocoder-fallback") {
        case nil, ("offline", _)?: fallback = true
        case ("none", _)?: fallback = false
        case (let text, let source)?: throw ConfigurationError("\(source) must be offline or none (got \(text)).")
        }
        switch value("geocoder") {
        case nil, ("offline", _)?:
            return .offline
        case ("nominatim", _)?:
            let url = value("nominatim-url")?.0 ?? GeocoderSetting.publicNominatimURL
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw ConfigurationError(
                    "\(value("nominatim-url")?.1 ?? "nominatim-url") must be an http:// or https:// URL (got \(url)).")
            }
            return .nominatim(url: url, fallbackToOffline: fallback)
        case (let text, let source)?:
            throw ConfigurationError("\(source) must be offline or nominatim (got \(text)).")
        }
    }

    /// The file's settings (`SettingsLines`) by key, each among `keys`; the last of a repeated key wins.
    static func parseFile(_ text: String, path: String) throws -> [String: SettingsLines.Setting] {
        var settings: [String: SettingsLines.Setting] = [:]
        do {
            for setting in try SettingsLines.parse(text) {
                guard keys.contains(setting.key) else { throw SettingsLines.Malformed(line: setting.line) }
                settings[setting.key] = setting
            }
        } catch let malformed as SettingsLines.Malformed {
            throw ConfigurationError(
                "\(path), line \(malformed.line): expected `key = value` with a key among \(keys.joined(separator: ", "))."
            )
        }
        return settings
    }
}
