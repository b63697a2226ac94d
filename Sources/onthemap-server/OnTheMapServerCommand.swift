import ArgumentParser
import OnTheMapModels

/// `onthemap-server`: a self-hostable server speaking the Udacity OnTheMap web API.
@main
struct OnTheMapServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onthemap-server",
        abstract: "A self-hostable server that speaks the Udacity OnTheMap web API.",
        discussion: """
            Stores accounts, sessions and student locations in one SQLite file. \
            Start with `onthemap-server seed --demo`, then `onthemap-server serve`.
            """,
        version: OnTheMapVersion.string,
        subcommands: [ServeCommand.self, UserCommand.self, SeedCommand.self]
    )
}
