import Foundation
import OnTheMapModels

/// What `postLocation` did.
public struct PostedLocation: Sendable, Hashable {
    /// The pin's id: the new one, or the existing pin's when it was moved.
    public var objectId: String
    /// When the pin was first created.
    public var createdAt: Date
    /// True when an existing pin of the account was moved instead of a new one created.
    public var moved: Bool
}

/// What `updateLocation` did.
public enum LocationUpdate: Sendable, Hashable {
    /// The pin as it is now.
    case updated(StudentLocation)
    /// No pin has that id.
    case notFound
    /// The pin is another account's: nothing changed.
    case ownedByAnother
    /// The pin was written since it was read (its `updatedAt` is not the one given): nothing changed.
    case changedSinceRead
}
