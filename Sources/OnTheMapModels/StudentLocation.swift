import FoundationEssentials

/// One student's pin, in the shape of the `StudentLocation` API.
///
/// Coded by Swift's synthesized `Codable` through `WireCoding`, its one writer and reader in every
/// program (keys sorted, which is the order Parse, the original backend, wrote them in; timestamps to
/// the millisecond): a new field is a property and its place in `init`, both in this file.
/// Decoding is strict: a record without a required field fails with the field named
/// (`DecodingError.keyNotFound`), and `StudentLocationList` skips and counts it.
public struct StudentLocation: Sendable, Hashable, Codable {
    public var objectId: String
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double
    public var createdAt: Date?
    public var updatedAt: Date?
    /// Set by the daemon alone, in what it gives clients: why it left `mediaURL` empty (`WebLink.problem`:
    /// "it holds a hidden character (U+202E)"), so `onthemap open` can say it; absent everywhere else.
    public var mediaURLDropped: String?

    /// Creates a location from already-clean values.
    public init(
        objectId: String,
        uniqueKey: String,
        firstName: String,
        lastName: String,
        mapString: String,
        mediaURL: String,
        latitude: Double,
        longitude: Double,
        createdAt: Date?,
        updatedAt: Date?
    ) {
        self.objectId = objectId
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// A location made of a draft's fields and the server's answer.
    public init(objectId: String, draft: StudentLocationDraft, createdAt: Date?, updatedAt: Date?) {
        self.init(
            objectId: objectId, uniqueKey: draft.uniqueKey, firstName: draft.firstName, lastName: draft.lastName,
            mapString: draft.mapString, mediaURL: draft.mediaURL, latitude: draft.latitude, longitude: draft.longitude,
            createdAt: createdAt, updatedAt: updatedAt)
    }

    /// "Ada Lovelace", or whichever part is known (`FullName`).
    public var fullName: String { FullName.of(first: firstName, last: lastName) }

    /// Why this location cannot go on a map (a coordinate out of range), or nil.
    public var placementProblem: String? {
        guard latitude.isFinite, (-90...90).contains(latitude) else { return "latitude \(latitude) is out of range" }
        guard longitude.isFinite, (-180...180).contains(longitude) else { return "longitude \(longitude) is out of range" }
        return nil
    }

    /// The body a `POST` or `PUT` of this location would send.
    public var draft: StudentLocationDraft {
        StudentLocationDraft(
            uniqueKey: uniqueKey,
            firstName: firstName,
            lastName: lastName,
            mapString: mapString,
            mediaURL: mediaURL,
            latitude: latitude,
            longitude: longitude
        )
    }
}
