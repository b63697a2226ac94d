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

extension StatusBarFormat: ExpressibleByArgument {}
