import ArgumentParser
import Foundation
import OnTheMapServer

/// `onthemap-server user …`: account management.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts.",
        subcommands: [
            ListUsersCommand.self, ShowUserCommand.self, AddUserCommand.self, RenameUserCommand.self,
            RemoveUserCommand.self, PasswordCommand.self, DisableUserCommand.self, EnableUserCommand.self,
        ])
}
