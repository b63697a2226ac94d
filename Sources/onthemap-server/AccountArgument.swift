import ArgumentParser
import OnTheMapServer

/// The database and the account, by key or email, that a `user` subcommand acts on.
struct AccountArgument: ParsableArguments {
    @OptionGroup var database: DatabaseOption
    @Argument(help: "Account key or email.") var account: String

    /// Opens the database, finds the account, runs `body` on both, and closes the database.
    func with<T>(_ body: (any ServerStorage, AccountRecord) async throws -> T) async throws -> T {
        try await database.with { storage in try await body(storage, findAccount(account, in: storage)) }
    }
}
