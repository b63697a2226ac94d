import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// Each program says what it was built with: the packages SwiftPM resolved for this build.
@Suite("--version --verbose", .ownThreads)
struct BuildInfoTests {
    /// The package's folder: three levels up from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test(arguments: ["onthemap", "onthemapd", "onthemap-server"])
    func namesEveryResolvedPackageWithItsVersion(program: String) throws {
        let resolved = try JSONText.parse(Data(contentsOf: URL(fileURLWithPath: Self.root + "/Package.resolved")))
        guard case .array(let pins)? = resolved["pins"] else {
            Issue.record("Package.resolved has no pins")
            return
        }
        let result = try runCommand(BuiltProducts.path(program), ["--version", "--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(program) \(OnTheMapVersion.string)")
        #expect(lines.dropFirst().first == "built with:")
        let listed = Dictionary(
            lines.dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
                .filter { $0.count == 2 }.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        #expect(listed.count == pins.count, "\(result.stdout)")
        for pin in pins {
            let name = pin["identity"]?.stringValue ?? "?"
            #expect(listed[name] == pin["state"]?["version"]?.stringValue, "\(name) in \(result.stdout)")
        }
        // Plain --version stays one line, for scripts.
        #expect(try runCommand(BuiltProducts.path(program), ["--version"]).stdout == OnTheMapVersion.string + "\n")
    }
}
