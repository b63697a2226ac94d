import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// `onthemap status` logged out exits 3 (as `gh auth status` exits 1), so a script's
/// `if onthemap status` can tell; it printed its status and exited 0 (a reviewer's run). The bars'
/// `--format` always exits 0. Driven through the real daemon, by the quick reading bars use and by
/// ArgumentParser's.
@Suite("status's exit status", .ownThreads)
struct StatusExitTests {
    @Test func loggedOutIsExitStatusThreeButNotForTheBars() throws {
        let bed = try CLITestBed(login: false)
        let socket = bed.daemon.socketPath
        // Plain, the quick reading; an option given twice goes through ArgumentParser.
        for arguments in [["status"], ["status", "--socket", socket, "--socket", socket]] {
            let status = try bed.run(arguments)
            #expect(status.status == 3, "\(arguments): \(status.stderr)")
            #expect(status.stdout.hasPrefix("logged out: run `onthemap login`\n"), "\(arguments): \(status.stdout)")
            #expect(status.stderr.isEmpty, "\(arguments): \(status.stderr)")
        }
        for arguments in [["status", "--json"], ["status", "--json", "--socket", socket, "--socket", socket]] {
            let json = try bed.run(arguments)
            #expect(json.status == 3, "\(arguments): \(json.stderr)")
            let parsed = try JSONDecoder().decode(WireJSON.self, from: Data(json.stdout.utf8))
            #expect(parsed["loggedIn"] == .bool(false), "\(arguments): \(json.stdout)")
        }
        for format in ["waybar", "i3blocks", "polybar", "json"] {
            let bar = try bed.run(["status", "--format", format])
            #expect(bar.status == 0, "--format \(format): \(bar.stderr)")
            #expect(!bar.stdout.isEmpty, "--format \(format) printed nothing")
        }

        // As a script asks.
        let script = "if onthemap status >/dev/null; then echo in; else echo out $?; fi"
        let path = BuiltProducts.directory + ":/usr/bin:/bin"
        let asked = {
            try runCommand("/bin/sh", ["-c", script], environment: bed.environment.merging(["PATH": path]) { $1 })
        }
        #expect(try asked().stdout == "out 3\n")

        // Logged in: 0; logged out again: 3.
        let login = try bed.run(
            ["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try asked().stdout == "in\n")
        #expect(try bed.run(["status", "--json"]).status == 0)
        #expect(try bed.run(["status", "--socket", socket, "--socket", socket]).status == 0)
        #expect(try bed.run(["logout"]).status == 0)
        #expect(try bed.run(["status"]).status == 3)
        #expect(try bed.run(["status", "--format", "waybar"]).status == 0)
    }
}
