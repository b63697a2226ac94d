import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapModels

/// `onthemap status`.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show whether you are logged in and how fresh the student list is.",
        discussion: "With --format, always prints one line (or block) a status bar can show, even when onthemapd is not running.\n\n\(ExitStatus.help)")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the daemon's status object as JSON.")
    var json = false

    @Option(help: "Print for a status bar: waybar, i3blocks or polybar.")
    var format: StatusBarFormat?

    func run() throws {
        let status = StatusOutput.print(socketCandidates: global.socketCandidates, json: json, format: format)
        if status != ExitStatus.ok { throw ExitCode(status) }
    }
}

/// The status for a person. Apart from `StatusCommand`, so the fast path never touches the command
/// type (whose property wrappers cost start-up time).
enum HumanStatus {
    // Built with `+` rather than `joined(separator:)`: that generic call is not specialised here and
    // makes the runtime look conformances up, which costs a short-lived process ~0.2 ms.
    static func render(_ status: WireJSON, style: Style, now: Date) -> String {
        var lines: [String] = []
        if status["loggedIn"]?.boolValue == true, let account = status["account"] {
            let first = account["firstName"]?.stringValue ?? ""
            let last = account["lastName"]?.stringValue ?? ""
            let name = first.isEmpty || last.isEmpty ? first + last : first + " " + last
            lines.append("logged in as " + style.bold(name) + " (" + (account["key"]?.stringValue ?? "?") + ")")
        } else {
            lines.append(style.yellow("logged out") + ": run `onthemap login`")
        }
        let students = status["students"]
        let count = students?["count"]?.intValue ?? 0
        let refreshed = RelativeTime.describe(students?["refreshedAt"]?.stringValue, now: now)
        var line = "students: " + String(count) + ", refreshed " + refreshed
        if students?["stale"]?.boolValue == true {
            line += " " + style.yellow("(stale: \(students?["lastError"]?.stringValue ?? "not refreshed lately"))")
        }
        if let unplaceable = students?["unplaceable"]?.intValue, unplaceable > 0 {
            line += "; " + String(unplaceable) + " left out (no usable coordinates)"
        }
        lines.append(line)
        if let pin = status["myPin"], let place = pin["mapString"]?.stringValue { lines.append("your pin: " + place) }
        lines.append("api: " + (status["apiURL"]?.stringValue ?? "?"))
        var text = lines[0]
        for line in lines.dropFirst() { text += "\n" + line }
        return text
    }
}

extension StatusBarFormat: ExpressibleByArgument {}
