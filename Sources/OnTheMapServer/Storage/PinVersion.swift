import Foundation
import OnTheMapModels

/// A pin's `updatedAt` as the version a conditional write compares (`LocationStore.updateLocation`'s
/// `ifUpdatedAt`). Stored to the millisecond, and every write moves it forward by at least one, so
/// two writes within a millisecond still leave two versions.
enum PinVersion {
    /// The `updatedAt` a write gives a pin last written at `previous`.
    static func next(after previous: Date, now: Date) -> Date {
        WireTimestamp.roundedToMilliseconds(max(now, previous.addingTimeInterval(0.001)))
    }

    /// `next(after:now:)` in SQLite's SQL, where dates are GRDB's text (`2026-09-26 11:37:29.463`,
    /// which `strftime`'s `%f` writes too; SQLite's date arithmetic is in whole milliseconds).
    static func sqliteNext(now: String, previous: String) -> String {
        "max(\(now), strftime('%Y-%m-%d %H:%M:%f', \(previous), '+0.001 seconds'))"
    }

    /// `next(after:now:)` in PostgreSQL's SQL.
    static func postgresNext(now: String, previous: String) -> String {
        "GREATEST(\(now), \(previous) + interval '1 millisecond')"
    }

    /// Whether two `updatedAt`s read back from storage are one version: equal to the millisecond
    /// (a `Date` carried through a database and back may differ in its last bits).
    static func same(_ stored: Date, _ read: Date) -> Bool {
        abs(stored.timeIntervalSince(read)) < 0.0005
    }
}
