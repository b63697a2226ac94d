import ArgumentParser
import OnTheMapBuildInfo
import OnTheMapModels
import OnTheMapSupport

import Glibc

/// `onthemap`: the client for people, shell scripts and status bars.
public struct OnTheMapCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "onthemap",
        abstract: "See where other Udacity students are, and post your own pin (talks to onthemapd).",
        discussion: """
            Data goes to stdout, messages to stderr; colour only on a terminal and never with NO_COLOR. \
            A list with nothing in it says so on stderr and exits 0. \
            The daemon's socket: --socket, else $ONTHEMAP_SOCKET, else the first that answers of \
            $XDG_RUNTIME_DIR/onthemap/onthemapd.sock, /run/user/$UID/onthemap/onthemapd.sock and \
            /tmp/onthemap-$UID/onthemapd.sock. `man onthemap` has examples.

            \(ExitStatus.help)
            """,
        version: OnTheMapVersion.string,
        subcommands: [
            StatusCommand.self, StudentsCommand.self, LoginCommand.self, LogoutCommand.self, RefreshCommand.self,
            MyPinCommand.self, GeocodeCommand.self, PostCommand.self, OpenCommand.self, SignupCommand.self,
            WatchCommand.self, MapCommand.self, ExportCommand.self, CallCommand.self,
        ]
    )

    public init() {}
}

/// The entry point of the `onthemap` executable.
public enum OnTheMapMain {
    public static func run() {
        // A reader that goes away (`| head`) is an EPIPE for `Output` to end on quietly, not a signal.
        signal(SIGPIPE, SIG_IGN)
        // What goes through stdio's buffer instead of `Output` (ArgumentParser's help, usage and
        // version) is checked at exit.
        BufferedOutput.checkAtExit(program: "onthemap")
        let arguments = hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        if BuildDependencies.isVerboseVersionRequest(arguments) {
            Output.line(BuildDependencies.verboseVersion(program: "onthemap", version: OnTheMapVersion.string))
            exit(0)
        }
        // First: status bars run `status` every few seconds, and this is the quickest way through.
        if let status = StatusCommand.quick(arguments) {
            do {
                try StatusCommand.show(status)
                exit(0)
            } catch let code as ExitCode {
                // Logged out: said on stdout already, the status alone is left.
                exit(code.rawValue)
            } catch {
                fail(error)
            }
        }
        let commands = OnTheMapCommand.configuration.subcommands.map { $0._commandName }
        if let word = arguments.first, let error = CommandSuggestion.error(for: word, commands: commands) {
            fail(error)
        }
        // ArgumentParser's `main`, but for its "Error: ": a usage error says "onthemap: " first, as
        // every other message does.
        do {
            var command = try OnTheMapCommand.parseAsRoot(arguments)
            try command.run()
        } catch {
            fail(error)
        }
    }

    /// Ends on `error` as ArgumentParser would (help and the version on stdout; usage errors with the
    /// usage text and status 64), each message after "onthemap: " and begun in lower case, as the
    /// CLI's own are ("onthemap: unknown option '--limt'" beside "onthemap: not logged in").
    static func fail(_ error: any Error) -> Never {
        ArgumentFailure.exit(error, of: OnTheMapCommand.self, prefix: CLIFailure.prefix, lowercased: true)
    }

    /// `onthemap --socket PATH status` works like `onthemap status --socket PATH`: the option is
    /// moved after the subcommand, where ArgumentParser looks for it.
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        var global: [String] = []
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("--socket") {
            global.append(first)
            rest = rest.dropFirst()
            if first == "--socket", let value = rest.first {
                global.append(value)
                rest = rest.dropFirst()
            }
        }
        guard !global.isEmpty, let subcommand = rest.first else { return arguments }
        return [subcommand] + global + rest.dropFirst()
    }
}
