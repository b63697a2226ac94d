import OnTheMapModels

/// Where a point to draw is and whether it is the user's own: all the renderer needs of a pin.
public struct MapPoint: Sendable, Equatable {
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

/// A point in view: which of the points given it is, and where it is drawn.
public struct PinPlacement: Sendable, Equatable {
    /// Its place in the points given to the renderer.
    public var index: Int
    public var cell: MapCell

    public init(index: Int, cell: MapCell) {
        self.index = index
        self.cell = cell
    }
}
