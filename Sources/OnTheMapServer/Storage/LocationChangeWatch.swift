/// Tells the newest-pins cache, without a query, that no pin can have changed since it last looked.
///
/// The cache keeps each encoded answer with the mark it was checked at; while `mark()` returns that
/// same mark it answers from memory with no database round trip. A mark only grows, and grows (at
/// the latest by the documented bound of each implementation) once any pin changes, through this
/// process, another replica or an admin command. nil means the watch cannot tell right now (no
/// connection to be told on): the cache then asks the database for the pins' version each time.
public protocol LocationChangeWatch: Sendable {
    /// The current mark, or nil when the database must be asked.
    func mark() -> UInt64?
}

/// A watch that never knows: every answer is checked against the database's pins' version (SQLite,
/// where that is one indexed row).
struct AlwaysAskTheDatabase: LocationChangeWatch {
    func mark() -> UInt64? { nil }
}
