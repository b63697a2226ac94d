import ArgumentParser
import OnTheMapServer

/// The database and the account, by key or email, that a `user` subcommand acts on. The email may
/// also be given as `--email`, the option `user add` takes it by (`user disable --email X` said
/// "Unknown option '--email'").
struct AccountArgument: ParsableArguments {
    @OptionGroup var database: DatabaseOption
    @Argument(help: "Account key or email.") var account: String?
    @Option(help: ArgumentHelp("The account's email, as `user add` takes it (the same as giving it as the argument).", valueName: "email"))
    var email: String?

    func validate() throws {
        switch (account, email) {
        case (nil, nil): throw ValidationError("Name the account: its key or email, or --email EMAIL.")
        case (_?, _?): throw ValidationError("Name the account once: its key or email, or --email, not both.")
        default: break
        }
    }

    /// The key or email given.
    var named: String { account ?? email ?? "" }

    /// Opens the database, finds the account, runs `body` on both, and closes the database.
    func with<T>(_ body: (any ServerStorage, AccountRecord) async throws -> T) async throws -> T {
        try await database.with { storage in try await body(storage, findAccount(named, in: storage)) }
    }
}
