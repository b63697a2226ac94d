import ArgumentParser
import OnTheMapServer

/// `user disable KEY|EMAIL`: no more logins; its sessions end.
struct DisableUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Stop an account from logging in and end its sessions.")
    @OptionGroup var target: AccountArgument
    @Flag(help: "Do not ask (required when standard input is not a terminal).") var yes = false

    func run() async throws {
        try await target.with { storage, record in
            try Confirmation.require("Disable \(record.shownName) and end its sessions?", yes: yes)
            _ = try await storage.setDisabled(true, forKey: record.key)
            print("disabled \(record.shownName)")
        }
    }
}
