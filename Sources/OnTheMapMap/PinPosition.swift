import OnTheMapModels

/// Where a pin goes and whether it is the user's own: all a map needs to place it. Names and links
/// stay with the caller, which finds them again by `PinPlacement.index`: copied into a pin apiece,
/// they were a third of the daemon's samples while it drew 10,000 students (perf).
public struct PinPosition: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// The user's own pin, drawn apart.
    public var mine: Bool

    public init(latitude: Double, longitude: Double, mine: Bool) {
        self.latitude = latitude
        self.longitude = longitude
        self.mine = mine
    }
}

/// A pin in view: which of the positions given it is, its number (1-based, in reading order of the
/// cells) and its cell (0-based).
public struct PinPlacement: Sendable, Equatable {
    /// Its place in the positions given to the renderer.
    public var index: Int
    public var n: Int
    public var row: Int
    public var col: Int

    public init(index: Int, n: Int, row: Int, col: Int) {
        self.index = index
        self.n = n
        self.row = row
        self.col = col
    }
}

extension MapPin {
    public var position: PinPosition {
        PinPosition(latitude: latitude, longitude: longitude, mine: mine)
    }
}
