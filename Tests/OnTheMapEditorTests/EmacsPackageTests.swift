import Foundation
import OnTheMapTestSupport
import Testing

/// clients/emacs/onthemap.el in the real `emacs --batch`: it byte-compiles without a warning, passes
/// checkdoc, and its ERT tests (clients/emacs/onthemap-tests.el) pass against the real daemon and
/// server.
@Suite("Emacs package", .ownThreads, .serialized)
struct EmacsPackageTests {
    static let emacs = Executables.find("emacs")
    static let package = EditorTestBed.root + "/clients/emacs/onthemap.el"

    /// A copy of the package in a scratch directory, so compiling leaves no .elc in the tree.
    private func scratchCopy() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory(prefix: "onthemap-emacs")
        let copy = directory.file("onthemap.el")
        try FileManager.default.copyItem(atPath: Self.package, toPath: copy)
        return (directory, copy)
    }

    @Test(.enabled(if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the Emacs package is not tested"))
    func byteCompilesWithoutWarnings() async throws {
        let (directory, copy) = try scratchCopy()
        defer { directory.remove() }
        let result = try await onOwnThread {
            try runCommand(
                Self.emacs!, ["--batch", "-Q", "--eval", "(setq byte-compile-error-on-warn t)", "-f", "batch-byte-compile", copy])
        }
        #expect(result.status == 0, transcript(result))
        #expect(!result.stderr.contains("Warning") && !result.stderr.contains("Error"), transcript(result))
        #expect(FileManager.default.fileExists(atPath: copy + "c"))
    }

    @Test(.enabled(if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the Emacs package is not tested"))
    func checkdocIsClean() async throws {
        let (directory, copy) = try scratchCopy()
        defer { directory.remove() }
        let result = try await onOwnThread {
            try runCommand(Self.emacs!, ["--batch", "-Q", "--eval", "(progn (require 'checkdoc) (checkdoc-file \"\(copy)\"))"])
        }
        #expect(result.status == 0, transcript(result))
        // checkdoc reports each problem as a warning; a clean file prints nothing.
        #expect(!result.stderr.contains("Warning") && result.stdout.isEmpty, transcript(result))
    }

    @Test(.enabled(if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the Emacs package is not tested"))
    func ertTestsAgainstRealDaemon() async throws {
        try await runERT(selector: "(not (or (tag root) (tag hostile) (tag width) (tag thousands) (tag refused)))")
    }

    /// The ERT tests tagged `thousands`, against a bed of thousands (EditorTestBed.thousands): the
    /// counts a person reads are grouped by three ("1,100").
    @Test(.enabled(if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the Emacs package is not tested"))
    func ertTestsGroupThousands() async throws {
        let summary = try await runERT(selector: "(tag thousands)", bed: EditorTestBed.thousands)
        #expect(summary?.hasPrefix("Ran 1 tests, 1 results as expected") == true, "\(summary ?? "no summary")")
    }

    /// The ERT tests tagged `hostile`, against a daemon whose upstream stores control characters
    /// and bidi overrides in names, places and links.
    @Test(.enabled(if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the Emacs package is not tested"))
    func packageShowsHostileTextSafely() async throws {
        let result = try await HostileUpstream.runEditor(Self.emacs!, Self.ertArguments(selector: "(tag hostile)"), environment: ["EMACS_TEST_VERBOSE": "1"])
        Self.expectNoneFailed(result, selector: "(tag hostile)")
    }

    /// `emacs --batch` running the ERT tests that `selector` picks.
    static func ertArguments(selector: String) -> [String] {
        let clients = EditorTestBed.root + "/clients/emacs"
        return ["--batch", "-Q", "-L", clients, "-l", clients + "/onthemap-tests.el", "--eval", "(ert-run-tests-batch-and-exit '\(selector))"]
    }

    /// The ERT tests tagged `root`, which the run above leaves out: the one place that decides
    /// whether they run is this test's trait.
    @Test(
        .enabled(if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the Emacs package is not tested"),
        .enabled(if: EditorTestBed.canMakeForeignSocket, EditorTestBed.foreignSocketNeedsRoot))
    func packageRefusesAnotherUsersSocket() async throws {
        let summary = try await runERT(selector: "(tag root)")
        #expect(summary?.hasPrefix("Ran 1 tests, 1 results as expected") == true, "\(summary ?? "no summary")")
    }

    /// Runs the ERT tests that `selector` picks against a test bed of its own (made by `bed`), expects none to fail
    /// and prints ERT's summary line (with "N skipped" when an `ert-skip` ran), then each skipped
    /// test with its reason. Returns the summary line.
    @discardableResult
    private func runERT(selector: String, bed makeBed: @escaping @Sendable () throws -> EditorTestBed = { try EditorTestBed() })
        async throws -> String?
    {
        // A thread of its own, as for Neovim: the run blocks for a minute.
        let result = try await onOwnThread {
            let bed = try makeBed()
            defer { bed.tearDown() }
            return try bed.runEditor(
                Self.emacs!, Self.ertArguments(selector: selector),
                // ERT then gives the reason of each skipped (and unexpected) result in its summary.
                environment: ["EMACS_TEST_VERBOSE": "1"])
        }
        return Self.expectNoneFailed(result, selector: selector)
    }

    /// Expects an ERT run to have no unexpected result; prints ERT's summary line, then each
    /// skipped test with its reason. Returns the summary line.
    @discardableResult
    static func expectNoneFailed(_ result: CommandResult, selector: String) -> String? {
        #expect(result.status == 0, transcript(result))
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        let summary = lines.last { $0.hasPrefix("Ran ") }.map(String.init)
        #expect(summary?.contains(", 0 unexpected") == true, transcript(result))
        print("emacs \(selector): \(summary ?? "no summary line from ERT")")
        // "1 skipped results:", then one line per test: `  SKIPPED  name  "reason"`, then a blank line.
        if let start = lines.firstIndex(where: { $0.hasSuffix(" skipped results:") }) {
            for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
                print("emacs: \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return summary
    }
}
