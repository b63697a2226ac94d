import OnTheMapModels

/// `map`'s result: the picture in cells, the pins in view, and where the view is.
public struct MapResult: RPCResultType, Equatable {
    /// The view's bounds in degrees (Web Mercator) and its zoom; `east` passes 180 across the antimeridian.
    public struct View: Sendable, Equatable, Codable {
        public var west: Double
        public var south: Double
        public var east: Double
        public var north: Double
        public var zoom: Double
        /// The closest this view's width draws: the outlines have no finer detail.
        public var maxZoom: Double
        /// The centre in words ("Leipzig, Germany"): the named place nearest it; empty for the whole world
        /// or open sea.
        public var place: String

        public init(
            west: Double, south: Double, east: Double, north: Double, zoom: Double, maxZoom: Double = 4096, place: String = ""
        ) {
            self.west = west
            self.south = south
            self.east = east
            self.north = north
            self.zoom = zoom
            self.maxZoom = maxZoom
            self.place = place
        }

        /// Whether the view is as close as the map draws.
        public var isAtMaxZoom: Bool { zoom >= maxZoom * 0.999 }
    }

    /// `height` strings of `width` one-column characters.
    public var rows: [String]
    /// One style code a cell: water, land, border, pin, own pin, cluster.
    public var styles: [String]
    /// The pins in view, in the order of their numbers (`cell.n`: reading order of their cells).
    public var pins: [StudentPin]
    /// How many cached students' pins are not in view.
    public var outside: Int
    public var view: View
    /// When `near` named a place: the place it was found to be ("Atlantis, Western Cape, South Africa").
    public var near: String?
    /// Set when the map holds only the newest this many students, those the daemon caches: its cache
    /// is full, and the server may hold more. Absent when every student is drawn.
    public var limitedTo: Int?

    public init(
        rows: [String], styles: [String], pins: [StudentPin], outside: Int = 0, view: View, near: String? = nil,
        limitedTo: Int? = nil
    ) {
        self.rows = rows
        self.styles = styles
        self.pins = pins
        self.outside = outside
        self.view = view
        self.near = near
        self.limitedTo = limitedTo
    }
}
