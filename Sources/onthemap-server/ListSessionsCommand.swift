import ArgumentParser
import Foundation
import OnTheMapServer

/// `session list [--user KEY|EMAIL]`: never prints a whole session id (it is a credential).
struct ListSessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List sessions, newest first.",
        discussion: """
            lastUsed is when a request last showed the session (noted at most once a minute; empty: not since \
            login); address and userAgent are the login's (the client's address through a --trusted-proxy).
            """)
    @OptionGroup var database: DatabaseOption
    @Option(help: "Only this account's sessions (key or email).") var user: String?
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let sessions = try await database.with { storage in
            let key = try await user.asyncMap { try await findAccount($0, in: storage).key }
            return try await storage.allSessions(accountKey: key)
        }
        let now = Date()
        var table = OutputTable(
            columns: ["session", "account", "created", "lastUsed", "expires", "address", "userAgent", "state"],
            leftOutFirst: ["userAgent", "address", "created", "lastUsed"])
        table.rows = sessions.map {
            [SessionPrefix.of($0.id), $0.accountKey, shortDate($0.createdAt), $0.lastUsedAt.map(shortDate) ?? "",
             shortDate($0.expiresAt), $0.clientAddress ?? "", $0.userAgent ?? "",
             $0.expiresAt > now ? "live" : "expired"]
        }
        table.print(json: json)
    }
}
