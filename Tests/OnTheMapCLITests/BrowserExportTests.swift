import Foundation
import OnTheMapTestSupport
import Testing

/// `onthemap export --html` opened in real headless Chromium with the network off, driven by Selenium
/// (Tests/Browser/export_map_check.py).
@Suite("onthemap export in Chromium", .ownThreads, .enabled(if: BrowserCheck.isAvailable, BrowserCheck.missing))
struct BrowserExportTests {
    @Test func markersPopupZoomAndSearchWorkOffline() throws {
        let bed = try CLITestBed()
        let page = bed.cacheHome.file("students.html")
        #expect(try bed.run(["export", "--html", page]).status == 0)
        // Kept after the test, for a person to look at.
        let artefacts = URL(fileURLWithPath: BuiltProducts.directory).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("test-artifacts")
        try FileManager.default.createDirectory(at: artefacts, withIntermediateDirectories: true)
        let screenshot = artefacts.appendingPathComponent("map-export.png").path
        let result = try runCommand("/usr/bin/env", ["python3", BrowserCheck.script, page, "100", screenshot])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ok   100 markers for 100 students"), "\(result.stdout)")
        #expect(result.stdout.contains("ok   a click opens the popup"), "\(result.stdout)")
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}

/// Whether Chromium, chromedriver and Selenium are here, and what to install when not.
enum BrowserCheck {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/export_map_check.py").path

    static let missing: Comment = "needs chromium, chromium-driver (apt-get) and selenium (pip): see .ci/run"

    static let isAvailable: Bool = {
        let tools = ["/usr/bin/chromium", "/usr/bin/chromedriver"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        guard tools, let result = try? runCommand("/usr/bin/env", ["python3", "-c", "import selenium"]) else { return false }
        return result.status == 0
    }()
}
