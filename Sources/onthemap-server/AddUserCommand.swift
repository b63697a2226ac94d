import ArgumentParser
import Foundation
import OnTheMapServer

/// `onthemap-server user add`: creates a password account; the password comes on stdin, never in argv.
struct AddUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an account that logs in with email and password.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "Login email.")
    var email: String

    @Option(help: "First name, shown on the map.")
    var first: String

    @Option(help: "Last name, shown on the map.")
    var last: String

    @OptionGroup var password: PasswordInput

    func validate() throws {
        try AccountNames.checkEmail(email)
        try AccountNames.check(first, option: "--first")
        try AccountNames.check(last, option: "--last")
    }

    func run() async throws {
        let hash = try await password.readHash()
        try await database.with { storage in
            do {
                let account = try await storage.createAccount(
                    NewAccount(email: email, passwordHash: hash, firstName: first, lastName: last))
                print("added \(email) with account key \(account.key)")
            } catch StorageError.emailTaken(let email) {
                throw CommandError(StorageError.emailTaken(email).description)
            }
        }
    }
}
