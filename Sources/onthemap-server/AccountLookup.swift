import OnTheMapModels
import OnTheMapServer

/// Finds an account by key or email, as every `user` subcommand names one.
func findAccount(_ keyOrEmail: String, in storage: any ServerStorage) async throws -> AccountRecord {
    let found = keyOrEmail.contains("@")
        ? try await storage.account(email: keyOrEmail) : try await storage.account(key: keyOrEmail)
    guard let found else { throw CommandError("No account has the key or email \(keyOrEmail).") }
    return found
}

extension DatabaseOption {
    /// Opens the database, runs `body`, and closes it whatever happened.
    func with<T>(_ body: (any ServerStorage) async throws -> T) async throws -> T {
        let storage = try await open()
        return try await storage.closing { try await body(storage) }
    }
}

extension AccountRecord {
    /// How messages name the account: its email, else its key, shown safely (`DisplayText`): an
    /// account added before emails were checked may hold anything.
    var shownName: String { DisplayText.clean(email ?? key) }
}
