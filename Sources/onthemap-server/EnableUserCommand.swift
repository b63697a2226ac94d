import ArgumentParser
import Foundation
import OnTheMapServer

/// `user enable KEY|EMAIL`.
struct EnableUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a disabled account log in again.")
    @OptionGroup var database: DatabaseOption
    @Argument(help: "Account key or email.") var account: String

    func run() async throws {
        try await database.with { storage in
            let record = try await findAccount(account, in: storage)
            _ = try await storage.setDisabled(false, forKey: record.key)
            print("enabled \(record.shownName)")
        }
    }
}
