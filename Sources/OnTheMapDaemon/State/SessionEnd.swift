/// Why a session ended; subscribers read it in `sessionChanged`'s `reason`.
enum SessionEnd: String, Sendable {
    /// The user logged out.
    case loggedOut
    /// The session's expiration time passed.
    case expired
    /// The upstream refused it (revoked, logged out elsewhere, the server's data reset).
    case rejected
}
