import Foundation
import OnTheMapTestSupport
import Testing

/// The completions `make install` installs (the program's own scripts) in the real shells, by
/// keystrokes under tmux: `call` completes the daemon's methods (from their declarations, no daemon
/// needed), and `open` the last table's row numbers and names, a name with a space as one word, a
/// name with a quote quoted, and a name holding `$(…)` as text, never run.
@Suite("Shell completions", .ownThreads, .enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct CompletionTests {
    enum Shell: String {
        case bash, zsh, fish

        var path: String { "/usr/bin/" + rawValue }

        /// The shell without the user's settings, and how it loads the script `onthemap` writes.
        func command(scripts: String) -> (run: String, load: String) {
            switch self {
            case .bash: ("bash --norc --noprofile", "source \(scripts)/onthemap.bash")
            case .zsh: ("zsh -f", "fpath=(\(scripts)/zsh $fpath); autoload -U compinit; compinit -u")
            case .fish: ("fish --no-config", "source \(scripts)/onthemap.fish")
            }
        }

        var scriptName: String {
            switch self {
            case .bash: "onthemap.bash"
            case .zsh: "zsh/_onthemap"
            case .fish: "onthemap.fish"
            }
        }
    }

    static func installed(_ shell: Shell) -> Bool { FileManager.default.isExecutableFile(atPath: shell.path) }

    @Test(.enabled(if: installed(.bash), "bash is not installed (apt-get install bash)"))
    func bash() throws { try callCompletesMethodsAndOpenTheLastTable(shell: .bash) }

    @Test(.enabled(if: installed(.zsh), "zsh is not installed (apt-get install zsh)"))
    func zsh() throws { try callCompletesMethodsAndOpenTheLastTable(shell: .zsh) }

    @Test(.enabled(if: installed(.fish), "fish is not installed (apt-get install fish)"))
    func fish() throws { try callCompletesMethodsAndOpenTheLastTable(shell: .fish) }

    private func callCompletesMethodsAndOpenTheLastTable(shell: Shell) throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-completion")
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.file("zsh"), withIntermediateDirectories: true)
        let script = try runCommand(BuiltProducts.path("onthemap"), ["--generate-completion-script", shell.rawValue])
        #expect(script.status == 0)
        try script.stdout.write(toFile: directory.file(shell.scriptName), atomically: true, encoding: .utf8)
        // The last table, as `onthemap students` leaves it.
        let cache = directory.file("cache/onthemap")
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        // Two names another student could write: one a shell would run (bash's `compgen -W` did, on
        // Tab), and one whose quote it took off.
        let ran = (directory.file("ran-dollar"), directory.file("ran-backquote"))
        let rows = [
            ("Ada Lovelace", "https://a.example"), ("Grace Hopper", "https://g.example"), ("Ada Byron", "https://b.example"),
            // Before the quote, which would keep bash from expanding what follows it.
            ("$(touch \(ran.0))", "https://x.example"), ("Eve `touch \(ran.1)`", "https://e.example"), ("Tim O'Brien", "https://t.example"),
            // Names sharing a first word: Tab stops at "Sven\ ", and the shell asks again with that.
            ("Sven Zhang", "https://sz.example"), ("Sven Chen", "https://sc.example"),
            ("Sven Berg", "https://sb.example"), ("Sven Olsen", "https://so.example"),
        ]
        try rows.map { #"{"link":"\#($0.1)","name":"\#($0.0)"}"# + "\n" }.joined()
            .write(toFile: cache + "/last-table.jsonl", atomically: true, encoding: .utf8)

        let (run, load) = shell.command(scripts: directory.path)
        let environment = [
            "HOME": directory.path, "XDG_CACHE_HOME": directory.file("cache"), "TERM": "xterm",
            "PATH": BuiltProducts.directory + ":/usr/bin:/bin", "ONTHEMAP_SOCKET": directory.file("no-daemon.sock"),
        ]
        let terminal = try TmuxSession(command: run, width: 120, height: 20, environment: environment)
        defer { terminal.tearDown() }
        try terminal.send(load, "Enter")
        try terminal.send("onthemap call stu", "Tab")
        var (shown, lines) = try terminal.waitForScreen { $0.contains { $0.hasSuffix("onthemap call students") || $0.contains("onthemap call students ") } }
        #expect(shown, "\(shell): \(lines.joined(separator: "\n"))")

        try terminal.send("C-u", "onthemap call s", "Tab", "Tab")
        (shown, lines) = try terminal.waitForScreen { screen in
            ["status", "students", "subscribe"].allSatisfy { word in screen.contains { $0.contains(word) && !$0.contains("onthemap call") } }
        }
        #expect(shown, "\(shell) lists the methods starting with s: \(lines.joined(separator: "\n"))")

        try terminal.send("C-u", "onthemap open Gr", "Tab")
        (shown, lines) = try terminal.waitForScreen { $0.contains { $0.contains(#"onthemap open Grace\ Hopper"#) } }
        #expect(shown, "\(shell) completes a name as one word: \(lines.joined(separator: "\n"))")

        try terminal.send("C-u", "onthemap open Tim", "Tab")
        (shown, lines) = try terminal.waitForScreen { $0.contains { $0.filter { $0 != "\\" }.contains("onthemap open Tim O'Brien") } }
        #expect(shown, "\(shell) completes a name with a quote, quoted: \(lines.joined(separator: "\n"))")

        // Names that share a first word: Tab stops after it (as typed, `Sven\ `), and from there the
        // full names are offered and reached (bash and zsh asked with the backslash and got nothing).
        try terminal.send("C-u", "onthemap open Sven", "Tab")
        // The screen as tmux gives it has no trailing spaces: `Sven\ ` reads `Sven\`.
        (shown, lines) = try terminal.waitForScreen { $0.contains { $0.hasSuffix(#"onthemap open Sven\"#) } }
        #expect(shown, "\(shell) completes the shared first word: \(lines.joined(separator: "\n"))")
        try terminal.send("Tab", "Tab")
        (shown, lines) = try terminal.waitForScreen { screen in
            let listed = Set(screen.filter { !$0.contains("onthemap open") }.flatMap { $0.split(separator: " ").map(String.init) })
            return listed.isSuperset(of: ["Zhang", "Chen", "Berg", "Olsen"])
        }
        #expect(shown, "\(shell) lists the names after the shared first word: \(lines.joined(separator: "\n"))")
        try terminal.send("C-u", #"onthemap open Sven\ Zh"#, "Tab")
        (shown, lines) = try terminal.waitForScreen { $0.contains { $0.contains(#"onthemap open Sven\ Zhang"#) } }
        #expect(shown, "\(shell) completes a name after its escaped space: \(lines.joined(separator: "\n"))")
        try terminal.send("C-u", "onthemap open 'Sven Ch", "Tab")
        (shown, lines) = try terminal.waitForScreen { $0.contains { $0.contains("onthemap open 'Sven Chen") } }
        #expect(shown, "\(shell) completes a name typed in quotes: \(lines.joined(separator: "\n"))")
        // bash's and zsh's `$'…'` quoting: the word came as `$'Gr`, read as "$Gr", and nothing was
        // offered. fish has no such quoting.
        if shell != .fish {
            try terminal.send("C-u", "onthemap open $'Gr", "Tab")
            (shown, lines) = try terminal.waitForScreen { $0.contains { $0.contains("onthemap open $'Grace Hopper'") } }
            #expect(shown, "\(shell) completes a name typed in $'…': \(lines.joined(separator: "\n"))")
            try terminal.send("C-u", "onthemap open $'Sven Ch", "Tab")
            (shown, lines) = try terminal.waitForScreen { $0.contains { $0.contains("onthemap open $'Sven Chen'") } }
            #expect(shown, "\(shell) completes a name with a space in $'…': \(lines.joined(separator: "\n"))")
        }
        if shell == .zsh {
            // An escape in it stands for its character (bash's own matching does not read this one).
            try terminal.send("C-u", #"onthemap open $'Tim O\'B"#, "Tab")
            let completed = #"onthemap open $'Tim O\'Brien'"#
            (shown, lines) = try terminal.waitForScreen { $0.contains { $0.contains(completed) } }
            #expect(shown, "\(shell) completes after an escape in $'…': \(lines.joined(separator: "\n"))")
        }

        try terminal.send("C-u", "onthemap open ", "Tab", "Tab")
        (shown, lines) = try terminal.waitForScreen { screen in
            let listed = Set(screen.filter { !$0.contains("onthemap open") }.flatMap { $0.split(separator: " ").map(String.init) })
            return listed.isSuperset(of: ["1", "2", "3", "Lovelace", "Byron", "Hopper"])
        }
        #expect(shown, "\(shell) lists the rows and names: \(lines.joined(separator: "\n"))")
        #expect(!FileManager.default.fileExists(atPath: ran.0) && !FileManager.default.fileExists(atPath: ran.1),
            "\(shell) ran a command written in a name while completing")

        // A file to write, and a socket, are paths: completed as files.
        try "".write(toFile: directory.file("export-target.html"), atomically: true, encoding: .utf8)
        // The folder as a person types it: zsh's _files completes nothing after a doubled slash.
        let folder = directory.path.replacingOccurrences(of: "//", with: "/")
        for option in ["export --html", "export --svg", "status --socket"] {
            try terminal.send("C-u", "onthemap \(option) \(folder)/export-t", "Tab")
            (shown, lines) = try terminal.waitForScreen { $0.contains { $0.contains("\(option) \(folder)/export-target.html") } }
            #expect(shown, "\(shell) completes a path after \(option): \(lines.joined(separator: "\n"))")
        }
    }
}
