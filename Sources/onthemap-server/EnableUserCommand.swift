import ArgumentParser
import OnTheMapServer

/// `user enable KEY|EMAIL`.
struct EnableUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a disabled account log in again.")
    @OptionGroup var target: AccountArgument

    func run() async throws {
        try await target.with { storage, record in
            _ = try await storage.setDisabled(false, forKey: record.key)
            print("enabled \(record.shownName)")
        }
    }
}
