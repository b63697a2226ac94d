import Foundation
import OnTheMapTestSupport
import Testing

/// The Emacs package in a real `emacs -nw` under tmux, typed at as fast as tmux types: what batch
/// Emacs cannot show (a question asked from a timer meets a minibuffer the user opened meanwhile).
@Suite("Emacs in a terminal", .ownThreads, .serialized)
struct EmacsTerminalTests {
    static let emacs = Executables.find("emacs")
    static let clients = EditorTestBed.root + "/clients/emacs"

    /// What a user saw, for the test's messages.
    struct Seen: Sendable {
        var asked = false, posted = false, clean = false
        var pin = ""
        var afterTyping = "", afterPost = "", messages = ""
    }

    /// `M-x onthemap-post RET Georgia RET` and at once `C-x C-f`, in one burst: the "Which Georgia"
    /// question still comes (the command asks it, not a timer), the post goes through, and no timer
    /// error is logged.
    @Test(
        .enabled(if: emacs != nil, "emacs is not installed (Debian: apt-get install emacs-nox): the Emacs package is not tested"),
        .enabled(if: TmuxSession.isAvailable, "tmux is not installed (Debian: apt-get install tmux): Emacs cannot be run in a terminal"))
    func postTypedAheadStillAsksWhichPlace() async throws {
        let seen = try await onOwnThread { try Self.postTypedAhead() }
        #expect(seen.asked, "the question after the burst:\n\(seen.afterTyping)")
        #expect(seen.posted, "the post:\n\(seen.afterPost)")
        #expect(seen.pin.hasPrefix("Georgia"), "the pin is at \(seen.pin)")
        #expect(seen.clean, "*Messages*:\n\(seen.messages)")
    }

    static func postTypedAhead() throws -> Seen {
        let bed = try EditorTestBed()
        defer { bed.tearDown() }
        let cli = BuiltProducts.path("onthemap")
        let socket = ["ONTHEMAP_SOCKET": bed.daemon.socketPath]
        let login = try runCommand(
            cli, ["login", "--username", EditorTestBed.email, "--password-stdin"], stdin: EditorTestBed.password + "\n",
            environment: socket)
        guard login.status == 0 else { throw ServerProcessError(message: "login: \(login.stderr)") }
        // Started in a scratch folder: keys that miss their prompt (the failure this looks for)
        // must not act on files that matter (C-x C-f then Enter opens a Dired of the folder).
        let session = try TmuxSession(
            command: "cd \(TmuxSession.quote(bed.scratch.file("home"))) && exec \(emacs!) -nw -Q -L \(TmuxSession.quote(clients)) -l onthemap",
            width: 80, height: 24,
            environment: socket.merging(["HOME": bed.scratch.file("home"), "TERM": "xterm-256color", "LANG": "C.UTF-8"]) { $1 })
        defer { session.tearDown() }
        // The last line with something on it: the echo area, where the minibuffer prompts.
        func echoArea(_ screen: [String]) -> String { screen.last { !$0.isEmpty } ?? "" }
        var seen = Seen()
        _ = try session.waitForScreen(timeout: 30) { $0.contains { $0.contains("*scratch*") } }
        // One burst, as a fast typist or a paste gives it.
        try session.send("M-x", "onthemap-post", "Enter", "Georgia", "Enter", "C-x", "C-f")
        var (ok, screen) = try session.waitForScreen(timeout: 30) { echoArea($0).hasPrefix("Which Georgia") }
        seen.asked = ok
        seen.afterTyping = screen.joined(separator: "\n")
        // Nothing more is typed into whatever has the keys instead.
        guard ok else { return seen }
        // Gone after a moment: the find-file typed into that prompt could not open a second one.
        _ = try session.waitForScreen(timeout: 5) { !echoArea($0).contains("[") }
        try session.send("Enter")
        _ = try session.waitForScreen(timeout: 30) { echoArea($0).hasPrefix("Link for Georgia") }
        try session.send("https://ada.example/georgia", "Enter")
        (ok, screen) = try session.waitForScreen(timeout: 30) {
            let line = echoArea($0)
            return line.contains("Move your pin") || line.contains("posted your pin at")
        }
        if echoArea(screen).contains("Move your pin") {
            try session.send("y")
        }
        (ok, screen) = try session.waitForScreen(timeout: 30) {
            let line = echoArea($0)
            return line.contains("posted your pin at Georgia") || line.contains("moved your pin to Georgia")
        }
        seen.posted = ok
        seen.afterPost = screen.joined(separator: "\n")
        let pin = try runCommand(cli, ["mypin", "--json"], environment: socket)
        seen.pin = (try? JSONSerialization.jsonObject(with: Data(pin.stdout.utf8)) as? [String: Any])?["mapString"] as? String ?? pin.stdout
        // *Messages*, as the user would look at it.
        try session.send("C-h", "e")
        (_, screen) = try session.waitForScreen(timeout: 10) { $0.contains { $0.contains("*Messages*") } }
        seen.messages = screen.joined(separator: "\n")
        seen.clean = seen.messages.contains("your pin")
            && !seen.messages.contains("Error running timer") && !seen.messages.contains("error in process")
        return seen
    }
}
