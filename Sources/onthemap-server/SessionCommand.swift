import ArgumentParser
import Foundation
import OnTheMapServer

/// `onthemap-server session …`: who is logged in.
struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "List and revoke sessions.",
        subcommands: [ListSessionsCommand.self, RevokeSessionCommand.self])
}

/// `session list [--user KEY|EMAIL]`: never prints a whole session id (it is a credential).
struct ListSessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List sessions, newest first.")
    @OptionGroup var database: DatabaseOption
    @Option(help: "Only this account's sessions (key or email).") var user: String?
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let sessions = try await database.with { storage in
            let key = try await user.asyncMap { try await findAccount($0, in: storage).key }
            return try await storage.allSessions(accountKey: key)
        }
        let now = Date()
        var table = OutputTable(columns: ["session", "account", "created", "expires", "state"])
        table.rows = sessions.map {
            [SessionPrefix.of($0.id), $0.accountKey, shortDate($0.createdAt), shortDate($0.expiresAt),
             $0.expiresAt > now ? "live" : "expired"]
        }
        table.print(json: json)
    }
}

/// `session revoke PREFIX | --user KEY|EMAIL`.
struct RevokeSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "End a session (by the prefix `session list` shows) or all of an account's.")
    @OptionGroup var database: DatabaseOption
    @Argument(help: "The session as `session list` shows it.") var session: String?
    @Option(help: "End every session of this account (key or email).") var user: String?
    @Flag(help: "Do not ask (required when standard input is not a terminal).") var yes = false

    func validate() throws {
        guard (session == nil) != (user == nil) else { throw ValidationError("Name a session or --user, not both.") }
    }

    func run() async throws {
        try await database.with { storage in
            if let user {
                let record = try await findAccount(user, in: storage)
                try Confirmation.require("End every session of \(record.email ?? record.key)?", yes: yes)
                print("revoked \(try await storage.revokeSessions(accountKey: record.key)) sessions")
                return
            }
            let matches = try await storage.allSessions(accountKey: nil).filter { SessionPrefix.of($0.id) == session }
            guard matches.count == 1, let match = matches.first else {
                throw CommandError("No single session matches \(session ?? ""); see `onthemap-server session list`.")
            }
            try Confirmation.require("End session \(session ?? "") of account \(match.accountKey)?", yes: yes)
            _ = try await storage.revokeSession(id: match.id)
            print("revoked session \(session ?? "")")
        }
    }
}

/// How a session is named to operators: its login time and the first 8 hex digits, not the whole secret.
enum SessionPrefix {
    static func of(_ id: String) -> String {
        String(id.prefix { $0 != "S" }) + "S" + String(id.drop { $0 != "S" }.dropFirst().prefix(8))
    }
}
