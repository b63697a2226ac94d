import Foundation
import OnTheMapModels

/// Where the server keeps everything that matters: accounts, sessions, login attempts and pins.
///
/// Two implementations: `SQLiteStorage` (one file, one server) and `PostgresStorage` (one database,
/// any number of replicas). Every rule that must hold across replicas — one pin per account, the login
/// rate limit, sessions — is enforced by the database inside one statement or transaction, never by a
/// read in Swift followed by a write, so both backends and any number of replicas behave as one.
public protocol ServerStorage: AccountStore, SessionStore, LoginAttemptStore, LocationStore, BulkStore, AdminStore {
    /// A human-readable name of the database, without secrets (e.g. `postgres://onthemap@db:5432/map`).
    var displayName: String { get }
    /// How many duplicate pins opening the storage merged into each account's newest.
    var mergedPins: Int { get }
    /// True when opening created the database (a new SQLite file, or the schema in an empty PostgreSQL
    /// database): `serve` says so in its log.
    var wasCreated: Bool { get }
    /// Answers once the database can be queried; throws `StorageError.unavailable` otherwise.
    func ping() async throws
    /// Releases connections; the storage is unusable afterwards.
    func close() async
    /// What tells the newest-pins cache, without a query, whether pins may have changed; started on
    /// the first call (`serve` makes it), stopped by `close()`.
    func locationChangeWatch() -> any LocationChangeWatch
    /// What a check of the stored data's integrity finds wrong (nothing: sound). Slow, reads the
    /// whole database: for `IntegrityMonitor`'s schedule only.
    func integrityProblems() async throws -> [String]
    /// Calls `action` whenever an operation meets damaged data (SQLite's "database disk image is
    /// malformed"), so the integrity check runs at once rather than at its next turn.
    func whenDamageMet(_ action: @escaping @Sendable () -> Void)
}

extension ServerStorage {
    /// Nothing to report: PostgreSQL reports damage as errors of the queries that meet it, and in its log.
    public func whenDamageMet(_ action: @escaping @Sendable () -> Void) {}

    /// No check of its own: PostgreSQL keeps its pages' checksums and reports damage in its log and
    /// as errors of the queries that meet it.
    public func integrityProblems() async throws -> [String] { [] }
}

/// Accounts: who can log in.
public protocol AccountStore: Sendable {
    /// Adds an account under a fresh key; throws `StorageError.emailTaken` if the email is in use.
    func createAccount(_ account: NewAccount) async throws -> AccountRecord
    /// The account with this email (case-insensitive), if any.
    func account(email: String) async throws -> AccountRecord?
    /// The account with this key, if any.
    func account(key: String) async throws -> AccountRecord?
    /// The account linked to a Facebook user, created on first login (atomically: two first logins
    /// at once make one account).
    func facebookAccount(facebookID: String, firstName: String, lastName: String, now: Date) async throws
        -> AccountRecord
}

/// Sessions: who is logged in.
public protocol SessionStore: Sendable {
    /// Stores a new session; in the same transaction forgets sessions that expired before `now` and
    /// the login attempts counted against `attemptsOf` (the subjects of the login that made it), so a
    /// successful login is one write.
    func insertSession(_ session: SessionRecord, now: Date, forgettingAttemptsOf attemptsOf: [String]) async throws
    /// The session with this id, whether or not it has expired.
    func session(id: String) async throws -> SessionRecord?
    /// Notes that a request used the session now (`liveSession` calls it at most once a minute).
    func markSessionUsed(id: String, at now: Date) async throws
    /// Ends the session whose XSRF token this is, and returns it.
    func deleteSession(xsrfToken: String) async throws -> SessionRecord?
}

/// Login attempts, counted in the database so that every replica counts the same attempts.
public protocol LoginAttemptStore: Sendable {
    /// Counts one attempt against each counter's subject (distinct subjects), in order, in a fixed
    /// window that starts at the subject's first attempt and lasts the counter's `window`; each count
    /// is atomic and all are one trip to the database. Stops after the first count over its counter's
    /// `limit` (an attempt refused for its address does not count against its account). Returns, in
    /// the counters' order, the tallies counted: the count including this attempt and when the window
    /// started. (A successful login forgets its account's count: `SessionStore.insertSession`.)
    func countAttempts(_ counters: [AttemptCounter], now: Date) async throws -> [AttemptTally]
}

/// Pins (student locations).
public protocol LocationStore: Sendable {
    /// How many pins an account may have; fixed when the storage was opened.
    var pinsPerAccount: PinsPerAccount { get }
    /// Pins matching the query, in its order (ties broken by `objectId` so pages are stable).
    func locations(_ query: LocationQuery) async throws -> [StudentLocation]
    /// The pin with this id, if any.
    func location(objectId: String) async throws -> StudentLocation?
    /// Stores a pin under `objectId`; with one pin per account, an account that already has one gets
    /// it moved instead (in the same statement) and the answer carries the existing pin's id.
    func postLocation(_ draft: StudentLocationDraft, objectId: String, now: Date) async throws -> PostedLocation
    /// Replaces a pin's fields, keeping `objectId` and `createdAt` — with `owner`, only if the pin is
    /// that account's, and with `readAt`, only if the pin's `updatedAt` is still the one read (both
    /// checked in the same statement or transaction as the write). Every write moves `updatedAt`
    /// forward by at least a millisecond, so it names one version of the pin. Throws
    /// `StorageError.accountHasPin` when the new `uniqueKey` already has another pin.
    func updateLocation(
        objectId: String, with draft: StudentLocationDraft, ownedBy owner: String?, ifUpdatedAt readAt: Date?, now: Date
    ) async throws -> LocationUpdate
    /// Inserts many pins in one transaction (seeding, copying); with one pin per account, a second pin
    /// of an account replaces the first if it is newer.
    func insertLocations(_ locations: [StudentLocation]) async throws
    /// How many pins are stored.
    func locationCount() async throws -> Int
    /// How many pins match the query's filters (its limit, skip and order aside).
    func countLocations(_ query: LocationQuery) async throws -> Int
    /// A number that changes whenever any pin changes, through any replica or command: the
    /// newest-pins cache compares it before answering from memory.
    func locationsVersion() async throws -> Int64
}
