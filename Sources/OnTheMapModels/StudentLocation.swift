#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One student's pin, in the shape of the `StudentLocation` API.
///
/// Encoding writes the keys in the order Parse (the original backend) wrote them, alphabetical, with
/// timestamps in milliseconds; decoding is liberal (see `StudentLocation+LenientDecoding.swift`).
public struct StudentLocation: Sendable, Hashable, Encodable {
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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case createdAt, firstName, lastName, latitude, longitude, mapString, mediaURL, objectId, uniqueKey,
            updatedAt
        /// Spelling found in real-world records.
        case mediaUrl
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let createdAt { try container.encode(WireTimestamp.milliseconds(createdAt), forKey: .createdAt) }
        try container.encode(firstName, forKey: .firstName)
        try container.encode(lastName, forKey: .lastName)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(mapString, forKey: .mapString)
        try container.encode(mediaURL, forKey: .mediaURL)
        try container.encode(objectId, forKey: .objectId)
        try container.encode(uniqueKey, forKey: .uniqueKey)
        if let updatedAt { try container.encode(WireTimestamp.milliseconds(updatedAt), forKey: .updatedAt) }
    }

    /// "Ada Lovelace", or whichever part is known.
    public var fullName: String {
        [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
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
