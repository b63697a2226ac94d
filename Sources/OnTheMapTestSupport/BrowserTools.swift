import Foundation
import Testing

/// Chromium, chromedriver and Selenium, which the browser checks (Tests/Browser/*.py) drive.
public enum BrowserTools {
    /// What to install when they are missing, for a test's skip reason.
    public static let missing: Comment = "needs chromium, chromium-driver (apt-get) and selenium (pip): see .ci/run"

    /// Whether all three are here.
    public static let isAvailable: Bool = {
        let tools = ["/usr/bin/chromium", "/usr/bin/chromedriver"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        guard tools, let result = try? runCommand("/usr/bin/env", ["python3", "-c", "import selenium"]) else { return false }
        return result.status == 0
    }()

    /// Where browser checks leave screenshots for a person to look at: `.build/test-artifacts`.
    public static var artefacts: String {
        URL(fileURLWithPath: BuiltProducts.directory).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("test-artifacts").path
    }
}
