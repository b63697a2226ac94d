import Foundation
import OnTheMapTestSupport
import Testing

/// The man pages in docs/man render without a warning from groff or man.
@Suite("Man pages", .ownThreads)
struct ManPageTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/man").standardized.path
    static let pages = ["onthemap.1", "onthemapd.1", "onthemap-server.1"]

    @Test(arguments: pages)
    func rendersWithoutWarnings(page: String) throws {
        let path = Self.directory + "/" + page
        let groff = "/usr/bin/groff"
        try #require(FileManager.default.isExecutableFile(atPath: groff), "groff is missing: apt-get install groff-base")
        let checked = try runCommand(groff, ["-ww", "-mandoc", "-z", path])
        #expect(checked.status == 0)
        #expect(checked.stderr.isEmpty, "\(page): \(checked.stderr)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let shown = try runCommand("/usr/bin/man", ["--warnings", "-l", path], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"])
            #expect(shown.status == 0)
            #expect(shown.stderr.isEmpty, "\(page): \(shown.stderr)")
            #expect(shown.stdout.contains("NAME"))
        }
    }

    @Test func serverPageListsTheOperationsOptions() throws {
        let page = try String(contentsOfFile: Self.directory + "/onthemap-server.1", encoding: .utf8)
        #expect(page.contains("Fl -access-log"), "docs/man is stale: run make man")
        #expect(page.contains("Fl -no-web") && page.contains("Fl -signup-url"), "docs/man is stale: run make man")
    }
}
