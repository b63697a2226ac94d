import Foundation
import Logging
import OnTheMapDaemon
import OnTheMapTestSupport
import Testing

@Suite("Configuration precedence", .ownThreads)
struct DaemonConfigurationTests {
    let paths = StatePaths(sessionFile: "/s", cacheFile: "/c", configFile: "/etc/onthemapd.conf")

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
