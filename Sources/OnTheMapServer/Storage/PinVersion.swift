import Foundation
import OnTheMapModels

/// A pin's `updatedAt` as the version a conditional write compares (`LocationStore.updateLocation`'s
/// `ifUpdatedAt`). Every write moves it forward by at least a millisecond, so two writes within one
/// millisecond still leave two versions; two versions are told apart to half a millisecond, because
/// a stored time may come back a little off: PostgreSQL keeps microseconds and PostgresNIO truncates
/// a `Date` to them (a quarter of millisecond times come back as …999 µs), SQLite keeps GRDB's text.
enum PinVersion {
    /// The `updatedAt` a write gives a pin last written at `previous`.
    static func next(after previous: Date, now: Date) -> Date {
        WireTimestamp.roundedToMilliseconds(max(now, previous.addingTimeInterval(0.001)))
    }

    /// Whether two `updatedAt`s read back from storage are one version.
    static func same(_ stored: Date, _ read: Date) -> Bool {
        abs(stored.timeIntervalSince(read)) < tolerance
    }

    private static let tolerance = 0.0005

    /// `next(after:now:)` in SQLite's SQL, where dates are GRDB's text (`2026-09-26 11:37:29.463`,
    /// which `strftime`'s `%f` writes too; SQLite's date arithmetic is in whole milliseconds).
    static func sqliteNext(now: String, previous: String) -> String {
        "max(\(now), strftime('%Y-%m-%d %H:%M:%f', \(previous), '+0.001 seconds'))"
    }

    /// `next(after:now:)` in PostgreSQL's SQL.
    static func postgresNext(now: String, previous: String) -> String {
        "GREATEST(\(now), \(previous) + interval '1 millisecond')"
    }

    /// `same` in PostgreSQL's SQL, true when `read` is NULL (no version asked for).
    static func postgresSame(_ stored: String, _ read: String) -> String {
        "(\(read) IS NULL OR abs(extract(epoch FROM \(stored) - \(read))) < \(tolerance))"
    }
}
