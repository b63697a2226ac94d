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

/// `user show KEY|EMAIL`: one account, with its pin and session counts.
struct ShowUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one account.")
    @OptionGroup var database: DatabaseOption
    @Argument(help: "Account key or email.") var account: String
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let (record, pins, sessions) = try await database.with { storage in
            let record = try await findAccount(account, in: storage)
            let pins = try await storage.locations(LocationQuery(limit: 1000, uniqueKey: record.key)).count
            let sessions = try await storage.allSessions(accountKey: record.key).count
            return (record, pins, sessions)
        }
        var table = OutputTable(columns: ["key", "email", "name", "login", "state", "created", "pins", "sessions"])
        table.rows = [record.tableRow + [String(pins), String(sessions)]]
        table.print(json: json)
    }
}

/// `user remove KEY|EMAIL`: deletes an account with its sessions and pins.
struct RemoveUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Delete an account, its sessions and its pins.")
    @OptionGroup var database: DatabaseOption
    @Argument(help: "Account key or email.") var account: String
    @Flag(help: "Do not ask (required when standard input is not a terminal).") var yes = false

    func run() async throws {
        try await database.with { storage in
            let record = try await findAccount(account, in: storage)
            try Confirmation.require("Delete \(record.email ?? record.key) with its sessions and pins?", yes: yes)
            _ = try await storage.removeAccount(key: record.key)
            print("removed \(record.email ?? record.key) (key \(record.key))")
        }
    }
}

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

/// `user disable KEY|EMAIL`: no more logins; its sessions end.
struct DisableUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Stop an account from logging in and end its sessions.")
    @OptionGroup var database: DatabaseOption
    @Argument(help: "Account key or email.") var account: String
    @Flag(help: "Do not ask (required when standard input is not a terminal).") var yes = false

    func run() async throws {
        try await database.with { storage in
            let record = try await findAccount(account, in: storage)
            try Confirmation.require("Disable \(record.email ?? record.key) and end its sessions?", yes: yes)
            _ = try await storage.setDisabled(true, forKey: record.key)
            print("disabled \(record.email ?? record.key)")
        }
    }
}

/// `user enable KEY|EMAIL`.
struct EnableUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a disabled account log in again.")
    @OptionGroup var database: DatabaseOption
    @Argument(help: "Account key or email.") var account: String

    func run() async throws {
        try await database.with { storage in
            let record = try await findAccount(account, in: storage)
            _ = try await storage.setDisabled(false, forKey: record.key)
            print("enabled \(record.email ?? record.key)")
        }
    }
}

extension AccountRecord {
    var tableRow: [String] {
        [key, email ?? "", "\(firstName) \(lastName)", passwordHash != nil ? "password" : "facebook",
         disabled ? "disabled" : "active", shortDate(createdAt)]
    }
}
