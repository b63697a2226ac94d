import ArgumentParser
import Foundation
import OnTheMapServer

/// `user list`: every account.
struct ListUsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List accounts.")
    @OptionGroup var database: DatabaseOption
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let accounts = try await database.with { try await $0.allAccounts() }
        var table = OutputTable(columns: ["key", "email", "name", "login", "state", "created"])
        table.rows = accounts.map(\.tableRow)
        table.print(json: json)
    }
}

extension AccountRecord {
    var tableRow: [String] {
        [key, email ?? "", "\(firstName) \(lastName)", passwordHash != nil ? "password" : "facebook",
         disabled ? "disabled" : "active", shortDate(createdAt)]
    }
}
