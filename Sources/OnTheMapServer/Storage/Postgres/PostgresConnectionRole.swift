/// What each connection a replica opens is for, as PostgreSQL's `pg_stat_activity` shows it
/// (`application_name`): an operator counting a replica's connections against `max_connections`
/// can tell the pool's from the others.
enum PostgresConnectionRole: String {
    /// The pool's: at most `--pool-size` (two pools' while a replaced one finishes its requests).
    case pool = "onthemap-server"
    /// The change watch's `LISTEN`: one, on top of the pool.
    case changeWatch = "onthemap-server change watch"
    /// A connection that only asks whether the database answers: at start, after an operation
    /// failed as if the database were gone, and every second while it is out. Closed at once.
    case probe = "onthemap-server probe"
}
