/// The body of `POST /StudentLocation` and `PUT /StudentLocation/{objectId}`: every field but
/// `objectId`, `createdAt` and `updatedAt`, in the order the course's examples send them.
public struct StudentLocationDraft: Sendable, Hashable, Codable {
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double

    /// Creates a draft.
    public init(
        uniqueKey: String,
        firstName: String,
        lastName: String,
        mapString: String,
        mediaURL: String,
        latitude: Double,
        longitude: Double
    ) {
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The body answering `POST /StudentLocation`.
public struct CreatedLocation: Sendable, Hashable, Codable {
    /// Creation time, as the API writes it (milliseconds, `Z`).
    public var createdAt: String
    public var objectId: String

    /// Creates the answer.
    public init(createdAt: String, objectId: String) {
        self.createdAt = createdAt
        self.objectId = objectId
    }
}

/// The body answering `PUT /StudentLocation/{objectId}`.
public struct UpdatedLocation: Sendable, Hashable, Codable {
    /// Update time, as the API writes it (milliseconds, `Z`).
    public var updatedAt: String

    /// Creates the answer.
    public init(updatedAt: String) {
        self.updatedAt = updatedAt
    }
}
