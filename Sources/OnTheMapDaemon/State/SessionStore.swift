import Foundation
import Logging
import OnTheMapAPI

/// The logged-in account as the daemon shows it.
public struct AccountInfo: Codable, Sendable, Hashable {
    public var key: String
    public var firstName: String
    public var lastName: String

    /// "Ada L.": short enough for a status line.
    var shortName: String {
        lastName.isEmpty ? firstName : "\(firstName) \(lastName.prefix(1))."
    }
}

/// The session and account, in memory and in a 0600 file, so a restart needs no new login.
///
/// Actor-isolated; the password is never stored anywhere.
actor SessionStore {
    private struct Persisted: Codable {
        var session: APISession
        var account: AccountInfo
    }

    private(set) var session: APISession?
    private(set) var account: AccountInfo?
    private let path: String
    private let logger: Logger
    /// Called whenever the session or account changes.
    private let onChange: @Sendable () -> Void

    init(path: String, logger: Logger, onChange: @escaping @Sendable () -> Void = {}) {
        self.path = path
        self.logger = logger
        self.onChange = onChange
    }

    /// Loads the persisted session, dropping it if it has expired or the file is unreadable.
    func load(now: Date = Date()) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        guard let persisted = try? JSONDecoder().decode(Persisted.self, from: data) else {
            logger.warning("ignoring an unreadable session file", metadata: ["path": "\(path)"])
            PrivateFile.remove(path)
            return
        }
        if persisted.session.isExpired(at: now) {
            logger.info("the saved session has expired; log in again")
            PrivateFile.remove(path)
            return
        }
        session = persisted.session
        account = persisted.account
        onChange()
    }

    func set(session: APISession, account: AccountInfo) {
        self.session = session
        self.account = account
        onChange()
        do {
            try PrivateFile.write(try JSONEncoder().encode(Persisted(session: session, account: account)), to: path)
        } catch {
            logger.warning("could not save the session; a restart will need a new login", metadata: ["error": "\(error)"])
        }
    }

    /// Forgets the session everywhere.
    func clear() {
        session = nil
        account = nil
        onChange()
        PrivateFile.remove(path)
    }

    /// The live session, or nil if there is none or it has expired (which clears it).
    func current(now: Date = Date()) -> APISession? {
        guard let session else { return nil }
        if session.isExpired(at: now) {
            clear()
            return nil
        }
        return session
    }
}
