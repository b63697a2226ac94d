import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

import FoundationEssentials

/// `onthemap status`.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show whether you are logged in and how fresh the student list is.",
        discussion: """
            Logged out, it says so (with --json, the status object with "loggedIn": false) and exits 3, so \
            `if onthemap status; then …` tells whether you are logged in.

            With --format, always prints one line (or block) a status bar can show and exits 0, logged out \
            or even when onthemapd is not running: the bar says offline, waybar's tooltip says how to start \
            it, and --format json prints {"offline":true,"reason":…}, the reason being the line onthemap \
            would print on stderr. When onthemapd cannot be reached, that line says what happened and what \
            to do.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the daemon's status object as JSON.")
    var json = false

    @Option(help: "Print for a status bar: waybar, i3blocks or polybar; or json.")
    var format: StatusBarFormat?

    func validate() throws {
        guard !json || format == nil else {
            throw ValidationError("Choose one of --json (the daemon's status object) and --format (a status bar's line).")
        }
    }

    func run() throws {
        try Self.show(options)
    }

    /// The command's work, given its options: what `run` does, and what a status bar's `status`
    /// runs (`quick`) with none of ArgumentParser's property wrappers made.
    static func show(_ options: Options) throws {
        // The daemon answers `status` from what it holds, at once: a bar that polls gives up after a
        // few seconds (a stopped or hung daemon) rather than the minute an upstream request may take.
        let status: StatusResult
        do {
            status = try GlobalOptions.connect(flag: options.socket, timeout: .seconds(5)).result(StatusParams())
        } catch {
            guard let format = options.format else { throw CLIFailure.exit(for: error) }
            // Offline is a state for the bar to show, not a failure: always a line, and exit 0.
            Output.line(try format.render(StatusSummary(.failure(error), now: Date()), status: nil))
            return
        }
        if let format = options.format {
            // A bar's line, and exit 0, logged in or not.
            Output.line(try format.render(StatusSummary(status: status, now: Date()), status: status))
            return
        }
        if options.json {
            try Output.json(status)
        } else {
            Output.line(HumanStatus.render(status, style: Style(enabled: Terminal.colorOnStdout), now: Date()))
        }
        // Printed as ever, and exit 3 so a script's `if onthemap status` tells (as `gh auth status`).
        if !status.loggedIn { throw ExitCode(ExitStatus.notLoggedIn) }
    }
}

extension StatusBarFormat: ExpressibleByArgument {}
