import Glibc
import OnTheMapModels

/// Why the client could not talk to the daemon.
public struct ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// No daemon at the socket path (missing, refused, or not permitted).
        case cannotConnect
        /// Something answers at the socket path, but it runs as another user: not our daemon.
        case untrustedPeer
        /// The daemon closed the connection.
        case closed
        /// No answer within the timeout.
        case timeout
        /// The daemon sent something that is not JSON-RPC.
        case malformed
    }

    public var kind: Kind
    public var message: String
    /// For `cannotConnect`: each path tried and why nothing answered there.
    public var attempts: [Attempt] = []
    /// For `cannotConnect`: what to do, the end of `message` (a status bar's tooltip shows it alone).
    public var advice: String?

    /// An error of `kind` with a message for people.
    public init(kind: Kind, message: String, attempts: [Attempt] = []) {
        self.kind = kind
        self.message = message
        self.attempts = attempts
    }

    public var description: String { message }

    /// One socket path tried, and why nothing answered there.
    public struct Attempt: Sendable, Hashable {
        public var path: String
        public var reason: String
        /// The user the socket belongs to, when it is another user's and connecting was not
        /// permitted (its 0600 mode, as the daemon makes it): not ours to use.
        public var otherUser: UInt32? = nil
    }

    /// For `cannotConnect`: the user another user's socket belongs to, when that is what was tried
    /// (and not permitted): a bar shows it as refused, not as a daemon that is not running.
    public var otherUser: UInt32? { attempts.lazy.compactMap(\.otherUser).first }

    /// Nothing answered at any of the paths tried: what happened in three words, what to do
    /// (`StartAdvice`), then each path tried with its reason. What to do comes before the paths:
    /// where the line is cut at a window's edge (an editor's list, a narrow terminal), three long
    /// paths pushed it out of sight. One path tried is one named by hand (the defaults are at least
    /// two).
    ///
    /// Another user's socket (not permitted) is not a daemon to start: it says whose it is and how
    /// to use your own instead; the paths are listed only when there were others.
    static func cannotConnect(_ attempts: [Attempt], named: Bool? = nil) -> ClientError {
        let named = named ?? (attempts.count == 1)
        let tried = "Tried " + attempts.map { "\($0.path) (\($0.reason))" }.joined(separator: "; ") + "."
        if let theirs = attempts.first(where: { $0.otherUser != nil }), let uid = theirs.otherUser {
            let advice = StartAdvice.useYourOwn(instead: theirs.path, named: named)
            var error = ClientError(
                kind: .cannotConnect,
                message: "cannot use \(theirs.path): the socket belongs to another user (uid \(uid)), so its onthemapd is not yours. "
                    + advice + (attempts.count == 1 ? "" : " " + tried),
                attempts: attempts)
            error.advice = advice
            return error
        }
        let advice = StartAdvice.advice(for: attempts.map(\.path), named: named)
        var error = ClientError(kind: .cannotConnect, message: "cannot reach onthemapd. " + advice + " " + tried, attempts: attempts)
        error.advice = advice
        return error
    }

    static func cannotConnect(_ path: String, errno code: Int32) -> ClientError {
        cannotConnect([Attempt(path: path, reason: String(cString: strerror(code)), otherUser: otherUsersSocket(path, errno: code))])
    }

    /// The uid another user's socket at `path` belongs to, when connecting to it failed for want of
    /// permission (EACCES, EPERM); nil for anything else (a missing path, a refused connection, a
    /// socket of our own, a folder we cannot look into).
    static func otherUsersSocket(_ path: String, errno code: Int32) -> UInt32? {
        guard code == EACCES || code == EPERM else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid != getuid() else { return nil }
        return info.st_uid
    }

    /// The daemon at `path`, served by `uid`, answered that it serves only its own user (-32010: its
    /// socket was opened up to others): the same refusal as a socket of theirs we may not open, in the
    /// same words, and no advice to start one.
    static func refused(at path: String, by uid: UInt32) -> ClientError {
        cannotConnect(
            [Attempt(path: path, reason: "it serves only its own user", otherUser: uid)],
            named: !StartAdvice.isDefaultSocket(path))
    }

    static func untrustedPeer(_ path: String, uid: UInt32) -> ClientError {
        ClientError(
            kind: .untrustedPeer,
            message: """
                refusing the socket \(path): it is served by uid \(uid), not by you or root, so it is not your \
                onthemapd (another user may be impersonating it). Nothing was sent. Remove it, and use a private \
                directory (XDG_RUNTIME_DIR).
                """)
    }
}

extension ClientError {
    /// A line the daemon sent that this client cannot read: another version's answer, or not a
    /// daemon at all. Names what was wrong, as strict decoding found it.
    static func malformed(_ error: DecodingError) -> ClientError {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return ClientError(kind: .malformed, message: "onthemapd sent a line that is not JSON")
        }
        return ClientError(
            kind: .malformed,
            message: "onthemapd sent an answer this onthemap cannot read (\(error.fieldProblem)); are both the same version? `onthemap --version` and `onthemapd --version` tell")
    }
}
