import ArgumentParser
import OnTheMapServer

/// `user passwd KEY|EMAIL --password-stdin`: a new password ends the account's sessions, so whoever
/// knew the old one is logged out too.
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set an account's password (from standard input) and end its sessions.")
    @OptionGroup var target: AccountArgument
    @OptionGroup var password: PasswordInput
    @Flag(help: "Keep the account's sessions (by default they end, and its devices must log in again).")
    var keepSessions = false

    func run() async throws {
        let hash = try await password.readHash()
        try await target.with { storage, record in
            _ = try await storage.setPasswordHash(hash, forKey: record.key)
            let name = record.shownName
            if keepSessions {
                print("password changed for \(name); its sessions were kept")
            } else {
                // After the new hash is stored: a session made with the old password before this
                // point is ended here, and none can be made with it after.
                let ended = try await storage.revokeSessions(accountKey: record.key)
                print("password changed for \(name); " + (ended == 0 ? "no session was live" : "ended \(counted(ended, "session"))"))
            }
        }
    }
}
