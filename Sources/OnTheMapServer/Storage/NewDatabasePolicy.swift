/// What opening a database does when there is none yet: no SQLite file or a 0-byte one, or a
/// PostgreSQL database without the schema.
///
/// Only commands that create a database by intent pass `.create` (`seed`, `migrate --create`,
/// `serve --create`, and the destinations of `backup`, `restore` and `copy`): for every other
/// command a typo in a path must be an error, not a new, empty database.
public enum NewDatabasePolicy: Sendable {
    /// Creates the file (and its folder) or the schema.
    case create
    /// Fails with `StorageError.notADatabase`, creating nothing.
    case refuse
}
