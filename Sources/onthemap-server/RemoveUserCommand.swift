import ArgumentParser
import OnTheMapServer

/// `user remove KEY|EMAIL`: deletes an account with its sessions and pins.
struct RemoveUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Delete an account, its sessions and its pins.")
    @OptionGroup var target: AccountArgument
    @Flag(help: "Do not ask (required when standard input is not a terminal).") var yes = false

    func run() async throws {
        try await target.with { storage, record in
            try Confirmation.require("Delete \(record.shownName) with its sessions and pins?", yes: yes)
            _ = try await storage.removeAccount(key: record.key)
            print("removed \(record.shownName) (key \(record.key))")
        }
    }
}
