/// A student's pin on a map: what an exported map draws, and what `map` lists (as a `PlacedPin`).
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

    /// The pin of a student's location; `mine` when it is the account's with this key.
    /// Borrowed: taken as an argument, the location was copied whole (all its strings retained) for
    /// each of a map's 10,000 pins.
    public init(_ location: borrowing StudentLocation, accountKey: String?) {
        self.init(
            objectId: location.objectId, firstName: location.firstName, lastName: location.lastName,
            mapString: location.mapString, mediaURL: location.mediaURL, latitude: location.latitude,
            longitude: location.longitude, mine: location.uniqueKey == accountKey)
    }
}

/// A pin in view: its number (1-based, in reading order of the cells) and its cell (0-based).
public struct PlacedPin: Sendable, Equatable {
    public var n: Int
    public var row: Int
    public var col: Int
    public var pin: MapPin

    public init(n: Int, row: Int, col: Int, pin: MapPin) {
        self.n = n
        self.row = row
        self.col = col
        self.pin = pin
    }
}
