import ArgumentParser
import Foundation
import OnTheMapServer

/// `user passwd KEY|EMAIL --password-stdin`.
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set an account's password (from standard input).")
    @OptionGroup var database: DatabaseOption
    @Argument(help: "Account key or email.") var account: String
    @Flag(help: "Read the new password from the first line of standard input (required).") var passwordStdin = false
    @Option(help: ArgumentHelp("bcrypt cost factor.", visibility: .hidden)) var bcryptCost: UInt8 = PasswordHasher.defaultCost

    func validate() throws {
        guard passwordStdin else { throw ValidationError("Give the password on standard input with --password-stdin.") }
    }

    func run() async throws {
        guard let line = readLine(strippingNewline: true), !line.isEmpty, line.utf8.count <= 72 else {
            throw CommandError("No password (of 1 to 72 bytes) on standard input.")
        }
        let hash = try await PasswordHasher(cost: bcryptCost).hash(line)
        try await database.with { storage in
            let record = try await findAccount(account, in: storage)
            _ = try await storage.setPasswordHash(hash, forKey: record.key)
            print("password changed for \(record.email ?? record.key)")
        }
    }
}
