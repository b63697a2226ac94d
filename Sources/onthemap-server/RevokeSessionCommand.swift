import ArgumentParser
import Foundation
import OnTheMapServer

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
                let ended = try await storage.revokeSessions(accountKey: record.key)
                print(ended == 0 ? "\(record.email ?? record.key) had no live session" : "revoked \(counted(ended, "session"))")
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
