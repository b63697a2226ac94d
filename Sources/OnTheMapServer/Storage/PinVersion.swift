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

    /// Whether two `updatedAt`s read back from storage are one version: equal to the millisecond
    /// (a `Date` carried through a database and back may differ in its last bits).
    static func same(_ stored: Date, _ read: Date) -> Bool {
        abs(stored.timeIntervalSince(read)) < 0.0005
    }
}
