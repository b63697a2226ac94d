import Testing

@testable import OnTheMapDaemon

/// How a daemon started by hand is started again (`SOCKET.how-to-start`): its flags, and the
/// settings it read from its environment that no flag overrode.
@Suite("The start hint")
struct StartHintTests {
    @Test func aVariableWhoseFlagIsGivenIsLeftOut() {
        let environment = [
            "ONTHEMAP_SOCKET": "/run/a.sock", "ONTHEMAP_API_URL": "http://a.example/v1", "ONTHEMAP_CACHE_SIZE": "500",
            "XDG_STATE_HOME": "/home/ada/state", "PATH": "/usr/bin",
        ]
        let line = StartHint.commandLine(
            arguments: ["/usr/bin/onthemapd", "--socket", "/run/b.sock", "--api-url=http://b.example/v1"],
            environment: environment, directory: "/home/ada")
        // One socket and one API named, the flags'; the cache size and the state folder still the variables'.
        #expect(line == "ONTHEMAP_CACHE_SIZE=500 XDG_STATE_HOME=/home/ada/state /usr/bin/onthemapd --socket /run/b.sock '--api-url=http://b.example/v1'")
    }

    @Test func eachSettingHasTheFlagOfItsName() {
        #expect(StartHint.flag(of: "ONTHEMAP_API_URL") == "--api-url")
        #expect(StartHint.flag(of: "ONTHEMAP_GEOCODER_FALLBACK") == "--geocoder-fallback")
        #expect(StartHint.flag(of: "XDG_STATE_HOME") == "")
    }
}
