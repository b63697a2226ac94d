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
        let clients = EditorTestBed.root + "/clients/emacs"
        // A thread of its own, as for Neovim: the run blocks for a minute.
        let result = try await onOwnThread {
            let bed = try EditorTestBed()
            defer { bed.tearDown() }
            return try bed.runEditor(
                Self.emacs!,
                ["--batch", "-Q", "-L", clients, "-l", clients + "/onthemap-tests.el", "-f", "ert-run-tests-batch-and-exit"])
        }
        #expect(result.status == 0, transcript(result))
        let summary = result.stderr.split(separator: "\n").last { $0.hasPrefix("Ran ") }
        #expect(summary?.contains(", 0 unexpected") == true, transcript(result))
        print("emacs: \(summary ?? "no summary line from ERT")")
    }
}
