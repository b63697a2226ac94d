import Foundation
import OnTheMapModels

/// What `onthemap-server user|pin|session …` need beyond serving.
public protocol AdminStore: Sendable {
    /// Every account, by creation time.
    func allAccounts() async throws -> [AccountRecord]
    /// Deletes an account with its sessions and pins; false if there was none.
    func removeAccount(key: String) async throws -> Bool
    /// Sets an account's password hash; false if there is no such account.
    func setPasswordHash(_ hash: String, forKey key: String) async throws -> Bool
    /// Sets an account's first and last name (and its nickname, which is its first name) and those
    /// its pins carry, in one transaction; returns how many pins were renamed.
    func renameAccount(key: String, firstName: String, lastName: String) async throws -> Int
    /// Disables or enables an account (a disabled one cannot log in; its sessions end); false if none.
    func setDisabled(_ disabled: Bool, forKey key: String) async throws -> Bool
    /// Deletes a pin; false if there was none.
    func removeLocation(objectId: String) async throws -> Bool
    /// Sessions, newest first; only the account's when a key is given.
    func allSessions(accountKey: String?) async throws -> [SessionRecord]
    /// Ends a session; false if there was none.
    func revokeSession(id: String) async throws -> Bool
    /// Ends every session of an account; returns how many.
    func revokeSessions(accountKey: String) async throws -> Int
}
