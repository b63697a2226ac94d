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

    @Flag(help: "Read the password from the first line of standard input (required: never put it in argv).")
    var passwordStdin = false

    @Option(help: ArgumentHelp("bcrypt cost factor.", visibility: .hidden))
    var bcryptCost: UInt8 = PasswordHasher.defaultCost

    func validate() throws {
        guard passwordStdin else {
            throw ValidationError("Give the password on standard input with --password-stdin.")
        }
        guard email.contains("@") else { throw ValidationError("--email must be an email address.") }
    }

    func run() async throws {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw ValidationError("No password on standard input.")
        }
        guard line.utf8.count <= 72 else {
            throw ValidationError("The password is longer than 72 bytes, which bcrypt cannot use in full.")
        }
        let hash = try await PasswordHasher(cost: bcryptCost).hash(line)
        let storage = try await database.open()
        let result = await Result {
            try await storage.createAccount(NewAccount(email: email, passwordHash: hash, firstName: first, lastName: last))
        }
        await storage.close()
        do {
            print("added \(email) with account key \(try result.get().key)")
        } catch let error as StorageError where error.isEmailTaken {
            throw ValidationError(error.description)
        }
    }
}
