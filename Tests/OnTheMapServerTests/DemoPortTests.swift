import Foundation
import OnTheMapTestSupport
import Testing

/// `make demo` on a port that is taken says which variable picks another.
@Suite("The demo on a busy port", .ownThreads)
struct DemoPortTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/demo.sh").standardized.path

    @Test func suggestsOnTheMapDemoPort() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let holder = try ServerProcess.start(databasePath: directory.file("holder.sqlite"))
        defer { holder.stop() }
        let run = directory.file("run")
        let result = try runCommand(
            "/bin/bash", [Self.script],
            environment: [
                "ONTHEMAP_DEMO_PORT": String(holder.port), "ONTHEMAP_DEMO_BIN": BuiltProducts.directory,
                "ONTHEMAP_DEMO_DIR": run,
            ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("port \(holder.port) is already in use"), "\(result.stderr)")
        #expect(result.stderr.contains("ONTHEMAP_DEMO_PORT=9090 make demo"), "\(result.stderr)")
        // Nothing was left running: no pid files, no daemon started.
        #expect(!FileManager.default.fileExists(atPath: run + "/server.pid"))
        #expect(!FileManager.default.fileExists(atPath: run + "/daemon.pid"))
    }
}
