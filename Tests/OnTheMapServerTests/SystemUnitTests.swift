import Foundation
import OnTheMapTestSupport
import Testing

/// `systemd/onthemap-server.service`: valid, hardened to an exposure of 2.0 or less.
@Suite("The server's system unit", .ownThreads)
struct SystemUnitTests {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../systemd/onthemap-server.service").standardized.path

    /// The unit with ExecStart pointing at the binary under test (verify checks that it exists).
    private func unitUnderTest(in directory: TemporaryDirectory) throws -> String {
        let unit = try String(contentsOfFile: Self.source, encoding: .utf8)
        let path = directory.file("onthemap-server.service")
        try unit.replacingOccurrences(of: "ExecStart=/usr/bin/onthemap-server", with: "ExecStart=" + BuiltProducts.path("onthemap-server"))
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func declaresTheHardeningAndNotify() throws {
        let unit = try String(contentsOfFile: Self.source, encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for directive in [
            "Type=notify", "DynamicUser=yes", "StateDirectory=onthemap-server", "ProtectSystem=strict", "NoNewPrivileges=yes",
            "ExecStart=/usr/bin/onthemap-server serve --create --db /var/lib/onthemap-server/onthemap.sqlite --host 127.0.0.1 --port 8080",
        ] {
            #expect(lines.contains(directive), "missing \(directive)")
        }
    }

    @Test func verifies() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Documentation=man:onthemap-server(1) is checked where the unit is installed with its man page.
        let result = try SystemdAnalyze.run(["verify", "--man=no", try unitUnderTest(in: directory)], scratch: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func exposureIsAtMostTwo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let unit = try unitUnderTest(in: directory)
        let result = try SystemdAnalyze.run(["security", "--offline=yes", "--threshold=20", unit], scratch: directory)
        let score = try #require(SystemdAnalyze.exposure(in: result.stdout + result.stderr), "\(result.stdout)\(result.stderr)")
        #expect(score <= 2.0, "\(result.stdout)")
        #expect(result.status == 0, "--threshold=20 refused it: \(result.stdout)")
        // The threshold can fail: the same unit stripped of its sandbox scores far worse.
        let bare = directory.file("bare.service")
        let stripped = try String(contentsOfFile: unit, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("Protect") && !$0.hasPrefix("Private") && !$0.hasPrefix("Restrict") && !$0.hasPrefix("SystemCall") && !$0.hasPrefix("Capability") && !$0.hasPrefix("DynamicUser") }
            .joined(separator: "\n")
        try stripped.write(toFile: bare, atomically: true, encoding: .utf8)
        let bareResult = try SystemdAnalyze.run(["security", "--offline=yes", "--threshold=20", bare], scratch: directory)
        #expect(bareResult.status != 0)
        #expect((SystemdAnalyze.exposure(in: bareResult.stdout + bareResult.stderr) ?? 0) > 2.0)
    }
}
