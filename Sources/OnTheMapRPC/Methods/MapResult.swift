import OnTheMapModels

/// `map`'s result: the picture in cells, the pins in view, and where the view is.
public struct MapResult: Sendable {
    /// One pin in view, numbered in reading order of its cell.
    public struct Pin: Sendable {
        public var n: Int
        /// 0-based cell.
        public var row: Int
        public var col: Int
        public var objectId: String
        public var firstName: String
        public var lastName: String
        public var mapString: String
        public var mediaURL: String
        public var latitude: Double
        public var longitude: Double
        /// The logged-in user's own.
        public var mine: Bool

        public init(
            n: Int, row: Int, col: Int, objectId: String, firstName: String, lastName: String, mapString: String,
            mediaURL: String, latitude: Double, longitude: Double, mine: Bool
        ) {
            self.n = n
            self.row = row
            self.col = col
            self.objectId = objectId
            self.firstName = firstName
            self.lastName = lastName
            self.mapString = mapString
            self.mediaURL = mediaURL
            self.latitude = latitude
            self.longitude = longitude
            self.mine = mine
        }

        var wireJSON: WireJSON {
            .object([
                ("n", .integer(n)), ("row", .integer(row)), ("col", .integer(col)), ("objectId", .string(objectId)),
                ("firstName", .string(firstName)), ("lastName", .string(lastName)), ("mapString", .string(mapString)),
                ("mediaURL", .string(mediaURL)), ("latitude", .number(latitude)), ("longitude", .number(longitude)),
                ("mine", .bool(mine)),
            ])
        }
    }

    /// The view's bounds in degrees (Web Mercator) and its zoom; `east` passes 180 across the antimeridian.
    public struct View: Sendable {
        public var west: Double
        public var south: Double
        public var east: Double
        public var north: Double
        public var zoom: Double

        public init(west: Double, south: Double, east: Double, north: Double, zoom: Double) {
            self.west = west
            self.south = south
            self.east = east
            self.north = north
            self.zoom = zoom
        }

        var wireJSON: WireJSON {
            .object([
                ("west", .number(west)), ("south", .number(south)), ("east", .number(east)), ("north", .number(north)),
                ("zoom", .number(zoom)),
            ])
        }
    }

    /// `height` strings of `width` one-column characters.
    public var rows: [String]
    /// One style code a cell: water, land, border, pin, own pin, cluster.
    public var styles: [String]
    public var pins: [Pin]
    public var view: View

    public init(rows: [String], styles: [String], pins: [Pin], view: View) {
        self.rows = rows
        self.styles = styles
        self.pins = pins
        self.view = view
    }

    public var wireJSON: WireJSON {
        .object([
            ("rows", .array(rows.map(WireJSON.string))), ("styles", .array(styles.map(WireJSON.string))),
            ("pins", .array(pins.map(\.wireJSON))), ("view", view.wireJSON),
        ])
    }
}
