/// A student's pin to draw.
public struct MapPin: Sendable, Equatable {
    public var objectId: String
    public var firstName: String
    public var lastName: String
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double
    /// The user's own pin, drawn apart.
    public var mine: Bool

    public init(
        objectId: String, firstName: String, lastName: String, mapString: String, mediaURL: String, latitude: Double,
        longitude: Double, mine: Bool
    ) {
        self.objectId = objectId
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
        self.mine = mine
    }
}

/// A pin in view: its number (1-based, in reading order of the cells) and its cell.
public struct PlacedPin: Sendable, Equatable {
    public var n: Int
    public var row: Int
    public var col: Int
    public var pin: MapPin
}
