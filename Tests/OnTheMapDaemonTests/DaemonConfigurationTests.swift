import Foundation
import Logging
import OnTheMapTestSupport
import SystemPackage
import Testing

@testable import OnTheMapDaemon

@Suite("Configuration precedence", .ownThreads)
struct DaemonConfigurationTests {
    let paths = StatePaths(sessionFile: "/s", cacheFile: "/c", configFile: "/etc/onthemapd.conf")

    /// The state files go where the XDG base directories say; a relative one is ignored, as the
    /// specification asks, and `$HOME`'s default taken instead.
    @Test func stateFilesFollowTheXDGBaseDirectories() {
        let paths = StatePaths.fromEnvironment(
            ["HOME": "/home/ada", "XDG_STATE_HOME": "/var/state/", "XDG_CACHE_HOME": "cache", "XDG_CONFIG_HOME": ""])
        #expect(paths.sessionFile == "/var/state/onthemap/session.json")
        #expect(paths.cacheFile == "/home/ada/.cache/onthemap/students.json")
        #expect(paths.configFile == "/home/ada/.config/onthemap/onthemapd.conf")
        // An empty or relative HOME is not a home: the secret would go to the folder the daemon started in.
        for home in ["", "ada"] {
            let fallback = StatePaths.fromEnvironment(["HOME": home])
            #expect(fallback.sessionFile.isAbsolute, "\(fallback.sessionFile)")
            #expect(fallback.sessionFile.string.hasSuffix("/.local/state/onthemap/session.json"))
        }
    }

    @Test func flagsBeatEnvironmentBeatFileBeatDefaults() throws {
        let file = """
            # comment
            api-url = http://file.example/v1
            cache-size = 300
            refresh-interval = 60   # seconds
            idle-timeout = 30
            """
        let configuration = try DaemonConfiguration.resolve(
            flags: ["refresh-interval": "5"],
            environment: ["ONTHEMAP_API_URL": "http://env.example/v1", "ONTHEMAP_REFRESH_INTERVAL": "7"],
            fileText: file, paths: paths, defaultSocketPath: "/run/default.sock")
        #expect(configuration.refreshInterval == .seconds(5))  // flag
        #expect(configuration.apiURL == "http://env.example/v1")  // environment
        #expect(configuration.cacheSize == 300)  // file
        #expect(configuration.idleTimeout == .seconds(30))  // file
        #expect(configuration.socketPath == "/run/default.sock")  // default
        #expect(configuration.logLevel == .info)  // default
    }

    @Test func defaultsPointAtUdacity() throws {
        let configuration = try DaemonConfiguration.resolve(
            flags: [:], environment: [:], fileText: nil, paths: paths, defaultSocketPath: "/x.sock")
        #expect(configuration.apiURL == "https://onthemap-api.udacity.com/v1")
        #expect(configuration.cacheSize == 100)
        #expect(configuration.refreshInterval == .seconds(300))
    }

    @Test func geocoderIsOfflineUnlessNominatimIsChosen() throws {
        func resolve(_ flags: [String: String], file: String? = nil) throws -> GeocoderSetting {
            try DaemonConfiguration.resolve(
                flags: flags, environment: [:], fileText: file, paths: paths, defaultSocketPath: "/x.sock"
            ).geocoder
        }
        #expect(try resolve([:]) == .offline)
        #expect(try resolve(["geocoder": "nominatim"]) == .nominatim(url: GeocoderSetting.publicNominatimURL, fallbackToOffline: true))
        #expect(
            try resolve(["geocoder": "nominatim", "geocoder-fallback": "none"], file: "nominatim-url = http://127.0.0.1:7070")
                == .nominatim(url: "http://127.0.0.1:7070", fallbackToOffline: false))
        #expect(throws: ConfigurationError.self) { try resolve(["geocoder": "google"]) }
        #expect(throws: ConfigurationError.self) { try resolve(["geocoder-fallback": "maybe"]) }
        #expect(throws: ConfigurationError.self) { try resolve(["geocoder": "nominatim", "nominatim-url": "nominatim.local"]) }
    }

    @Test(arguments: [
        ("cache-size = lots", "/etc/onthemapd.conf, line 1: cache-size"),
        ("# comment\n\nrefresh-interval = 0", "/etc/onthemapd.conf, line 3: refresh-interval"),
        ("api-url = ftp://x", "line 1: api-url"),
        ("colour = blue", "line 1"),
        ("socket = /s\nlog-level = loud", "line 2: log-level"),
    ])
    func badSettingsAreNamed(line: String, mentioned: String) {
        #expect {
            try DaemonConfiguration.resolve(flags: [:], environment: [:], fileText: line, paths: paths, defaultSocketPath: "/x")
        } throws: { error in
            "\(error)".contains(mentioned)
        }
    }
}

/// The real `onthemapd`, refusing settings: an option is a usage error (64, with the usage text); a
/// line of the file or a variable of the environment is said alone, by file and line or by name,
/// and the daemon does not start (1), as onthemapd(1)'s EXIT STATUS says.
@Suite("Refused settings, from the real onthemapd", .ownThreads)
struct RefusedSettingsTests {
    /// Runs onthemapd with its own XDG folders, under `timeout`: a setting let through would start a
    /// daemon that serves until killed (124).
    private func run(_ arguments: [String], file: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: home.file("config/onthemap"), withIntermediateDirectories: true)
        if let file { try file.write(toFile: home.file("config/onthemap/onthemapd.conf"), atomically: true, encoding: .utf8) }
        var variables = environment
        for (name, folder) in ["XDG_CONFIG_HOME": "config", "XDG_STATE_HOME": "state", "XDG_CACHE_HOME": "cache", "XDG_RUNTIME_DIR": "runtime"] {
            variables[name] = home.file(folder)
        }
        let socket = ["--socket", home.file("onthemapd.sock"), "--api-url", "http://127.0.0.1:9/v1"]
        var result = try runCommand("/usr/bin/timeout", ["20", BuiltProducts.path("onthemapd")] + socket + arguments, environment: variables)
        result.stderr = result.stderr.replacing(home.path, with: "HOME")
        return result
    }

    /// A negative number is a number out of range, not "Missing value for '--cache-size'".
    @Test(arguments: [
        ("--cache-size", "-1", "--cache-size must be from 1 to 100000 (got -1)."),
        ("--refresh-interval", "-5", "--refresh-interval must be 1 second or more (got -5)."),
        ("--idle-timeout", "-1", "--idle-timeout must be 1 second or more, or 0 for never (got -1)."),
        ("--cache-size", "100001", "--cache-size must be from 1 to 100000 (got 100001)."),
    ])
    func aNumberOutOfRangeOnTheCommandLineIsAUsageError(option: String, value: String, message: String) throws {
        let result = try run([option, value])
        #expect(result.status == 64, "\(result.stderr)")
        // After "onthemapd: ", as the daemon's other messages, not ArgumentParser's "Error: ".
        #expect(result.stderr.hasPrefix("onthemapd: \(message)\nUsage: onthemapd "), "\(result.stderr)")
    }

    @Test(arguments: [
        ("socket = /tmp/x.sock\nbogus = 1\n", [:],
         #"HOME/config/onthemap/onthemapd.conf, line 2: unknown setting "bogus"; the settings are socket, api-url, "#
            + "cache-size, refresh-interval, idle-timeout, log-level, geocoder, nominatim-url, geocoder-fallback."),
        ("# mine\ncach-size = 5\n", [:],
         #"HOME/config/onthemap/onthemapd.conf, line 2: unknown setting "cach-size" (did you mean cache-size?); the settings are "#),
        ("refresh-interval = -5\n", [:], "HOME/config/onthemap/onthemapd.conf, line 1: refresh-interval must be 1 second or more (got -5)."),
        ("refresh-interval = abc\n", [:],
         "HOME/config/onthemap/onthemapd.conf, line 1: refresh-interval must be a whole number, and 1 second or more (got abc)."),
        ("refresh interval 60\n", [:], "HOME/config/onthemap/onthemapd.conf, line 1: expected `key = value`; the settings are socket, "),
        (nil, ["ONTHEMAP_CACHE_SIZE": "-3"], "ONTHEMAP_CACHE_SIZE must be from 1 to 100000 (got -3)."),
    ] as [(String?, [String: String], String)])
    func aBadSettingInTheFileOrTheEnvironmentIsSaidAlone(file: String?, environment: [String: String], message: String) throws {
        let result = try run([], file: file, environment: environment)
        #expect(result.status == 1, "\(result.status): \(result.stderr)")
        #expect(result.stderr.hasPrefix("onthemapd: \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(!result.stderr.contains("Usage:"), "the usage text is about the command line: \(result.stderr)")
    }

    /// `--config` naming a file that is not there: the file is the problem, not the command line's shape.
    @Test func aMissingConfigurationFileIsSaidAlone() throws {
        let result = try run(["--config", "/nonexistent/onthemapd.conf"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "onthemapd: No configuration file at /nonexistent/onthemapd.conf.\n", "\(result.stderr)")
    }

    /// ArgumentParser's own errors begin "onthemapd: " too (status 64, the usage after them); help and
    /// the version are as ever, on stdout, status 0.
    @Test func usageErrorsBeginWithTheProgramsName() throws {
        for (arguments, first) in [
            (["--cache-sise", "5"], "onthemapd: Unknown option '--cache-sise'. Did you mean '--cache-size'?\n"),
            (["--cache-size"], "onthemapd: Missing value for '--cache-size <cache-size>'\n"),
        ] {
            let result = try run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(first) && result.stderr.contains("Usage: onthemapd "), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Error:"), "\(arguments): \(result.stderr)")
        }
        for arguments in [["--help"], ["--version"]] {
            let result = try run(arguments)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
            #expect(arguments == ["--help"] ? result.stdout.hasPrefix("OVERVIEW: The OnTheMap daemon") : result.stdout == Daemon.version + "\n", "\(result.stdout)")
        }
    }
}

@Suite("Reloading the configuration", .ownThreads)
struct ReloadTests {
    @Test func sighupNamesSettingsThatNeedARestart() throws {
        let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:1/v1")
        defer { daemon.tearDown() }
        let directory = daemon.home.file("config/onthemap")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "cache-size = 7\ngeocoder = nominatim\n".write(toFile: directory + "/onthemapd.conf", atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        let deadline = Date().addingTimeInterval(10)
        while !daemon.log.contains("take effect at the next start"), Date() < deadline { usleep(20_000) }
        #expect(daemon.log.contains("configuration reloaded"))
        #expect(daemon.log.contains("take effect at the next start"))
        #expect(daemon.log.contains("geocoder"))
    }
}
