import Foundation
import OnTheMapTestSupport
import Testing

/// How Emacs 28 users install the package, tried as they would: the use-package recipe of
/// docs/EDITORS.md in an init file, in a real `emacs -nw` started in a terminal (tmux) of 80
/// columns; and `package-install-file`, whose generated autoloads must offer every command.
@Suite("Emacs package installed", .ownThreads, .serialized)
struct EmacsRecipeTests {
    static let emacs = Executables.find("emacs")
    /// Debian's use-package for Emacs 28 (built into Emacs only from 29).
    static let usePackage =
        ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/share/emacs/site-lisp/elpa")) ?? [])
        .contains { $0.hasPrefix("use-package-") }
    static let clients = EditorTestBed.root + "/clients/emacs"

    /// The commands a user runs with M-x, each with an autoload cookie in onthemap.el.
    static let commands = [
        "onthemap", "onthemap-search", "onthemap-near", "onthemap-map", "onthemap-post", "onthemap-login",
        "onthemap-logout", "onthemap-status-mode",
    ]

    /// The use-package recipe of docs/EDITORS.md: the elisp block after the marker comment, with
    /// the clone's path made this repository's.
    static func documentedRecipe() throws -> String {
        let docs = try String(contentsOfFile: EditorTestBed.root + "/docs/EDITORS.md", encoding: .utf8)
        let marker = "<!-- the use-package recipe"
        guard let start = docs.range(of: marker),
            let open = docs.range(of: "```elisp\n", range: start.upperBound..<docs.endIndex),
            let close = docs.range(of: "```", range: open.upperBound..<docs.endIndex)
        else { throw ServerProcessError(message: "docs/EDITORS.md has no use-package recipe after \(marker)") }
        return String(docs[open.upperBound..<close.lowerBound]).replacingOccurrences(
            of: "~/src/onthemap/clients/emacs", with: clients)
    }

    @Test(
        .enabled(
            if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the recipe is not tested"),
        .enabled(
            if: TmuxSession.isAvailable,
            "tmux is not installed (Debian: apt-get install tmux): Emacs cannot be started as users start it"),
        .enabled(
            if: usePackage,
            "use-package is not installed (Debian: apt-get install elpa-use-package): the recipe is not tested"))
    func useRecipeFromTheDocsOnEmacs28() async throws {
        let recipe = try Self.documentedRecipe()
        #expect(recipe.contains("use-package onthemap"), "\(recipe)")
        // On a thread of its own, as the other editor tests; what it saw is checked here, in the test.
        let seen = try await onOwnThread { try Self.startWithRecipe(recipe) }
        let (status, asked, listed) = (seen.status, seen.asked, seen.listed)
        #expect(status, "the mode line after init:\n\(seen.afterInit)")
        #expect(asked, "M-x onthemap-search:\n\(seen.afterCommand)")
        #expect(listed, "the search list, logged out:\n\(seen.afterSearch)")
    }

    /// What a user saw after start-up with the recipe as init file, after M-x onthemap-search, and
    /// after a search.
    struct Seen: Sendable {
        var status = false, asked = false, listed = false
        var afterInit = "", afterCommand = "", afterSearch = ""
    }

    static func startWithRecipe(_ recipe: String) throws -> Seen {
        let bed = try EditorTestBed()
        defer { bed.tearDown() }
        // A home of its own: the init file is the recipe and nothing else; Debian's site files
        // (which make its elpa packages, use-package among them, available) load as usual.
        let home = bed.scratch.file("recipe-home")
        try FileManager.default.createDirectory(atPath: home + "/.emacs.d", withIntermediateDirectories: true)
        try recipe.write(toFile: home + "/.emacs.d/init.el", atomically: true, encoding: .utf8)
        let session = try TmuxSession(
            command: "exec \(emacs!) -nw", width: 80, height: 24,
            environment: [
                "HOME": home, "ONTHEMAP_SOCKET": bed.daemon.socketPath, "TERM": "xterm-256color", "LANG": "C.UTF-8",
            ])
        defer { session.tearDown() }
        var seen = Seen()
        // The last line with something on it: the echo area, where the minibuffer prompts.
        func echoArea(_ screen: [String]) -> String { screen.last { !$0.isEmpty } ?? "" }
        // After init, with no command run yet: the status is in the mode line.
        var (ok, screen) = try session.waitForScreen(timeout: 30) {
            $0.contains { $0.contains("logged out") && $0.contains("(Fundamental)") }
        }
        seen.status = ok
        seen.afterInit = screen.joined(separator: "\n")
        // M-x knows every command, onthemap-search included.
        try session.send("M-x")
        _ = try session.waitForScreen { echoArea($0).hasPrefix("M-x") }
        try session.send("onthemap-search", "Enter")
        (ok, screen) = try session.waitForScreen { echoArea($0).contains("Search students (name or place):") }
        seen.asked = ok
        seen.afterCommand = screen.joined(separator: "\n")
        try session.send("berlin", "Enter")
        (ok, screen) = try session.waitForScreen {
            $0.contains { $0.contains("Not logged in: run M-x onthemap-login first.") }
        }
        seen.listed = ok
        seen.afterSearch = screen.joined(separator: "\n")
        return seen
    }

    @Test(
        .enabled(
            if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the package is not tested"))
    func packageInstallFileAutoloadsEveryCommand() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-elpa")
        defer { directory.remove() }
        let setup = "(setq package-user-dir \"\(directory.file("elpa"))\" package-archives nil)"
        let install = try await onOwnThread {
            try runCommand(
                Self.emacs!,
                [
                    "--batch", "-Q", "--eval",
                    "(progn (require 'package) \(setup) (package-initialize) (package-install-file \"\(Self.clients)/onthemap.el\"))",
                ],
                environment: ["HOME": directory.path])
        }
        #expect(install.status == 0, transcript(install))
        // A new Emacs: the package is activated, not loaded; each command is an autoload.
        let check = try await onOwnThread {
            try runCommand(
                Self.emacs!,
                [
                    "--batch", "-Q", "--eval",
                    "(progn (require 'package) \(setup) (package-initialize) (dolist (command '(\(Self.commands.joined(separator: " ")))) (princ (format \"%s %s %s\\n\" command (and (fboundp command) (autoloadp (symbol-function command)) t) (commandp command)))) (princ (format \"loaded %s\\n\" (featurep 'onthemap))))",
                ],
                environment: ["HOME": directory.path])
        }
        #expect(check.status == 0, transcript(check))
        for command in Self.commands {
            #expect(
                check.stdout.contains("\(command) t t\n"), "\(command) is not autoloaded as a command:\n\(check.stdout)"
            )
        }
        #expect(check.stdout.contains("loaded nil"), "the package loaded before a command ran:\n\(check.stdout)")
    }
}
