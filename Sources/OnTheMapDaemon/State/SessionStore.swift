import Foundation
import Logging
import OnTheMapAPI
import OnTheMapRPC

extension AccountInfo {
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
    func load(now: Date = Date()) async {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        guard let persisted = try? JSONDecoder().decode(Persisted.self, from: data) else {
            logger.warning("ignoring an unreadable session file", metadata: ["path": "\(path)"])
            await PrivateFile.remove(path)
            return
        }
        if persisted.session.isExpired(at: now) {
            logger.info("the saved session has expired; log in again")
            await PrivateFile.remove(path)
            return
        }
        session = persisted.session
        account = persisted.account
        Self.keepOutOfTheLog(persisted.session)
        onChange()
    }

    func set(session: APISession, account: AccountInfo) async {
        self.session = session
        self.account = account
        Self.keepOutOfTheLog(session)
        onChange()
        do {
            try await PrivateFile.write(try JSONEncoder().encode(Persisted(session: session, account: account)), to: path)
        } catch {
            logger.warning("could not save the session; a restart will need a new login", metadata: ["error": "\(error)"])
        }
    }

    /// The session's secrets are redacted from every log line from now on (see `LogRedaction`).
    private static func keepOutOfTheLog(_ session: APISession) {
        LogRedaction.register(session.sessionID)
        LogRedaction.register(session.xsrfToken)
    }

    /// Forgets the session everywhere, if it is the one named (any, when `sessionID` is nil); true
    /// when there was such a session to forget.
    func clear(ifSessionID sessionID: String? = nil) async -> Bool {
        guard let session, sessionID == nil || session.sessionID == sessionID else { return false }
        self.session = nil
        account = nil
        onChange()
        await PrivateFile.remove(path)
        return true
    }

    /// The session unless it has expired. Ending an expired session, with its events, is the
    /// daemon's job (`Daemon.endSession`), not this store's.
    func current(now: Date = Date()) -> APISession? {
        guard let session, !session.isExpired(at: now) else { return nil }
        return session
    }
}
