import ArgumentParser
import Foundation
import OnTheMapServer

/// `onthemap-server session …`: who is logged in.
struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "List and revoke sessions.",
        subcommands: [ListSessionsCommand.self, RevokeSessionCommand.self])
}

/// How a session is named to operators: its login time and the first 8 hex digits, not the whole secret.
enum SessionPrefix {
    static func of(_ id: String) -> String {
        String(id.prefix { $0 != "S" }) + "S" + String(id.drop { $0 != "S" }.dropFirst().prefix(8))
    }
}
