import OnTheMapModels

/// `map`'s result: the picture in cells, the pins in view, and where the view is.
public struct MapResult: RPCResultType {
    /// The view's bounds in degrees (Web Mercator) and its zoom; `east` passes 180 across the antimeridian.
    public struct View: Sendable, Equatable {
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

        var wireJSON: WireJSON {
            .object([
                ("west", .number(west)), ("south", .number(south)), ("east", .number(east)), ("north", .number(north)),
                ("zoom", .number(zoom)), ("maxZoom", .number(maxZoom)), ("place", .string(place)),
            ])
        }

        init(wireJSON: WireJSON?) {
            west = wireJSON?["west"]?.doubleValue ?? -180
            south = wireJSON?["south"]?.doubleValue ?? -85
            east = wireJSON?["east"]?.doubleValue ?? 180
            north = wireJSON?["north"]?.doubleValue ?? 85
            zoom = wireJSON?["zoom"]?.doubleValue ?? 1
            maxZoom = wireJSON?["maxZoom"]?.doubleValue ?? 4096
            place = wireJSON?["place"]?.stringValue ?? ""
        }
    }

    /// `height` strings of `width` one-column characters.
    public var rows: [String]
    /// One style code a cell: water, land, border, pin, own pin, cluster.
    public var styles: [String]
    /// The pins in view, numbered in reading order of their cells.
    public var pins: [PlacedPin]
    /// How many cached students' pins are not in view.
    public var outside: Int
    public var view: View
    /// When `near` named a place: the place it was found to be ("Atlantis, Western Cape, South Africa").
    public var near: String?

    public init(rows: [String], styles: [String], pins: [PlacedPin], outside: Int = 0, view: View, near: String? = nil) {
        self.rows = rows
        self.styles = styles
        self.pins = pins
        self.outside = outside
        self.view = view
        self.near = near
    }

    public var wireJSON: WireJSON {
        var members: [(String, WireJSON)] = [
            ("rows", .array(rows.map(WireJSON.string))), ("styles", .array(styles.map(WireJSON.string))),
            ("pins", .array(pins.map(\.wireJSON))), ("outside", .integer(outside)), ("view", view.wireJSON),
        ]
        if let near { members.append(("near", .string(near))) }
        return .object(members)
    }

    public init(wireJSON: WireJSON) {
        func strings(_ key: String) -> [String] {
            guard case .array(let elements)? = wireJSON[key] else { return [] }
            return elements.compactMap(\.stringValue)
        }
        rows = strings("rows")
        styles = strings("styles")
        if case .array(let pins)? = wireJSON["pins"] { self.pins = pins.map(PlacedPin.init(wireJSON:)) } else { pins = [] }
        outside = wireJSON["outside"]?.intValue ?? 0
        view = View(wireJSON: wireJSON["view"])
        near = wireJSON["near"]?.stringValue
    }
}

extension PlacedPin {
    /// One pin as `map` lists it: its number and cell, then the student, in one flat object.
    var wireJSON: WireJSON {
        .object([
            ("n", .integer(n)), ("row", .integer(row)), ("col", .integer(col)), ("objectId", .string(pin.objectId)),
            ("firstName", .string(pin.firstName)), ("lastName", .string(pin.lastName)), ("mapString", .string(pin.mapString)),
            ("mediaURL", .string(pin.mediaURL)), ("latitude", .number(pin.latitude)), ("longitude", .number(pin.longitude)),
            ("mine", .bool(pin.mine)),
        ])
    }

    init(wireJSON: WireJSON) {
        self.init(
            n: wireJSON["n"]?.intValue ?? 0, row: wireJSON["row"]?.intValue ?? 0, col: wireJSON["col"]?.intValue ?? 0,
            pin: MapPin(
                objectId: wireJSON["objectId"]?.stringValue ?? "", firstName: wireJSON["firstName"]?.stringValue ?? "",
                lastName: wireJSON["lastName"]?.stringValue ?? "", mapString: wireJSON["mapString"]?.stringValue ?? "",
                mediaURL: wireJSON["mediaURL"]?.stringValue ?? "", latitude: wireJSON["latitude"]?.doubleValue ?? 0,
                longitude: wireJSON["longitude"]?.doubleValue ?? 0, mine: wireJSON["mine"]?.boolValue ?? false))
    }
}
