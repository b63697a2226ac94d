import ArgumentParser
import Foundation
import OnTheMapBuildInfo
import OnTheMapModels
import OnTheMapSupport

/// `onthemap-server`: a self-hostable server speaking the Udacity OnTheMap web API.
@main
struct OnTheMapServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onthemap-server",
        abstract: "A self-hostable server that speaks the Udacity OnTheMap web API.",
        discussion: """
            Stores accounts, sessions and student locations in one SQLite file, or in PostgreSQL \
            (--database postgres://…) for several replicas. Start with `onthemap-server seed --demo`, \
            then `onthemap-server serve`. Settings: flags, then ONTHEMAP_DATABASE_URL, then the file \
            given by --config or ONTHEMAP_SERVER_CONFIG (`key = value` lines named as the long options).

            A database that is not there (no file, a 0-byte file, a PostgreSQL database without the \
            tables) is an error for every command but seed, migrate --create, serve --create and the \
            destinations of backup, restore and copy, which create it.

            Exit status: 0 done, 1 failed, 64 a mistake in the command line or the settings file \
            (which is named by file and line).
            """,
        version: OnTheMapVersion.string,
        subcommands: [
            ServeCommand.self, MigrateCommand.self, CopyCommand.self, UserCommand.self, PinCommand.self,
            SessionCommand.self, BackupCommand.self, RestoreCommand.self, SeedCommand.self,
        ]
    )

    /// Parses the command line with the settings file and the environment in front of it, so flags win.
    static func main() async {
        // The lists (`user list`, `pin list --json`) to a full disk: an error, not a truncated file
        // and a success.
        BufferedOutput.checkAtExit(program: "onthemap-server")
        if BuildDependencies.isVerboseVersionRequest(CommandLine.arguments) {
            print(BuildDependencies.verboseVersion(program: "onthemap-server", version: OnTheMapVersion.string))
            return
        }
        let expansion: SettingsFile.Expansion
        do {
            expansion = try SettingsFile.expand(
                Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        } catch {
            Failure.fail(error.description, status: error.status)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(expansion.arguments)
        } catch {
            // A bad value in the settings file is named by file and line, without the usage text.
            if let blame = expansion.blame(error, parse: { try parseAsRoot($0) }) {
                Failure.fail(blame, status: Failure.usage)
            }
            Failure.failParsing(error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Failure.fail(for: error)
        }
    }
}
