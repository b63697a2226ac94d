import Foundation
import OnTheMapTestSupport
import Testing

/// One rule for text width in the CLI, Neovim and Emacs (issue 40): names with a combining accent
/// ("José" written with U+0301), East Asian wide characters and emoji, posted through the real
/// server, are cut by each editor exactly as Tests/OnTheMapCLITests/Golden/text-cuts.txt says (the
/// CLI's test, TextCutTests, checks the CLI against the same file); in each editor's list they are
/// cut whole (Neovim's list is also checked to line up). Emacs cut "José" between the e and its
/// accent ("Jose…").
@Suite("One text width in the CLI and both editors", .ownThreads, .serialized)
struct TextWidthTests {
    /// First and last names, as the test posts them.
    static let people = [("Jose\u{301}", "Pe\u{301}rez"), ("美咲", "田中"), ("Rocket🚀", "Fan"), ("Star✨", "Lee")]

    static var names: [String] { people.map { "\($0.0) \($0.1)" } }

    /// What every client must cut: "name<TAB>width<TAB>cut" lines.
    static func expectedCuts() throws -> [String] {
        let golden = EditorTestBed.root + "/Tests/OnTheMapCLITests/Golden/text-cuts.txt"
        return try String(contentsOfFile: golden, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A bed whose server has a pin for each of `people` (each logs in and posts through the CLI
    /// and the daemon), with the demo account logged in again at the end.
    static func bed() throws -> EditorTestBed {
        let bed = try EditorTestBed()
        let environment = bed.environment
        func cli(_ arguments: [String], stdin: String? = nil) throws {
            let result = try runCommand(BuiltProducts.path("onthemap"), arguments, stdin: stdin, environment: environment)
            guard result.status == 0 else { throw ServerProcessError(message: "onthemap \(arguments): \(result.stderr)") }
        }
        for (index, person) in people.enumerated() {
            let email = "width\(index)@example.com"
            try bed.server.addUser(email: email, password: "width-test-\(index)", first: person.0, last: person.1)
            try cli(["login", "--force", "--username", email, "--password-stdin"], stdin: "width-test-\(index)\n")
            try cli(["post", "Paris, France", "https://width.example/\(index)", "--yes", "--overwrite"])
        }
        try cli(["login", "--force", "--username", EditorTestBed.email, "--password-stdin"], stdin: EditorTestBed.password + "\n")
        return bed
    }

    /// The "CUT" lines an editor printed, without the mark.
    static func cuts(in output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("CUT\t") }.map { String($0.dropFirst(4)) }
    }

    @Test(.enabled(if: NeovimPluginTests.nvim != nil, "nvim is not installed (Debian: apt-get install neovim): Neovim's text width is not tested"))
    func neovimCutsAsTheCLIDoes() async throws {
        let result = try await onOwnThread {
            let bed = try Self.bed()
            defer { bed.tearDown() }
            return try bed.runEditor(
                NeovimPluginTests.nvim!, NeovimPluginTests.arguments,
                environment: ["ONTHEMAP_TEST_ONLY": "width_spec", "ONTHEMAP_TEST_NAMES": Self.names.joined(separator: "\t")])
        }
        NeovimPluginTests.expectAllPassed(result, label: "width_spec")
        #expect(Self.cuts(in: result.stdout) == (try Self.expectedCuts()), transcript(result))
    }

    @Test(.enabled(if: EmacsPackageTests.emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): Emacs's text width is not tested"))
    func emacsCutsAsTheCLIDoes() async throws {
        let result = try await onOwnThread {
            let bed = try Self.bed()
            defer { bed.tearDown() }
            return try bed.runEditor(
                EmacsPackageTests.emacs!, EmacsPackageTests.ertArguments(selector: "(tag width)"),
                environment: ["EMACS_TEST_VERBOSE": "1", "ONTHEMAP_TEST_NAMES": Self.names.joined(separator: "\t")])
        }
        let summary = EmacsPackageTests.expectNoneFailed(result, selector: "(tag width)")
        #expect(summary?.hasPrefix("Ran 1 tests, 1 results as expected") == true, "\(summary ?? "no summary")")
        #expect(Self.cuts(in: result.stdout) == (try Self.expectedCuts()), transcript(result))
    }
}
