/// What each connection a replica opens is for, as PostgreSQL's `pg_stat_activity` shows it
/// (`application_name`): an operator counting a replica's connections against `max_connections`
/// can tell the pool's from the others.
enum PostgresConnectionRole: String {
    /// The pool's: at most `--pool-size`.
    case pool = "onthemap-server"
    /// The change watch's `LISTEN`: one, on top of the pool; while the database is out, tried again
    /// every second.
    case changeWatch = "onthemap-server change watch"
    /// A connection that asks whether the database answers: at start, and when an operation failed
    /// as if it were gone. Closed at once.
    case probe = "onthemap-server probe"
}
