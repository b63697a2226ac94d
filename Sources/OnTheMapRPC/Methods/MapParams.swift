import OnTheMapModels

/// `map {width?, height?, fit? | center+zoom? | near+radiusKm?, charset?, labels?}` → `MapResult`.
public struct MapParams: RPCRequestType, Equatable {
    public typealias Response = MapResult
    public static let method = "map"
    public static let summary = """
        The world with the cached students' pins, drawn in terminal cells: {rows, styles, pins, outside, view, near?}; requires login.
        """

    /// `fit`: the default view, or the smallest view holding every pin.
    public enum Fit: String, Sendable, CaseIterable {
        case world, pins
    }

    /// `charset`.
    public enum Charset: String, Sendable, CaseIterable {
        case braille, ascii
    }

    /// A point on the map.
    public struct Point: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// `near`: a place the daemon geocodes (`"LAT,LON"` reads as a point), or a point.
    public enum Near: Sendable, Hashable {
        case place(String)
        case point(Point)
    }

    // The map module's limits (`MapRenderer.minimumSize`, `.maximumSide`, `MapView.zoomRange`); a
    // test holds them equal.
    public static let widthRange = 10...1000
    public static let heightRange = 5...1000
    public static let zoomRange = 1.0...4096
    public static let radiusRange = 0.1...20_100
    public static let defaultSize = (width: 80, height: 24)
    public static let defaultRadiusKm = 500.0

    public static let width = RPCParam<Int>.integer("width", in: widthRange, "cells across, 10…1000 (default 80)")
    public static let height = RPCParam<Int>.integer("height", in: heightRange, "cells down, 5…1000 (default 24)")
    public static let fit = RPCParam<Fit>.choice("fit", "\"world\" (the default view) or \"pins\"")
    public static let center = RPCParam<Point>("center", .object, "{latitude, longitude}: the view's centre, with zoom") {
        params throws(RPCError) in
        guard let center = try params.object("center", allowed: ["latitude", "longitude"]) else { return nil }
        return try MapParams.point(center, field: "center")
    } write: { MapParams.point(json: $0) }
    public static let zoom = RPCParam<Double>.number(
        "zoom", in: zoomRange,
        "with center: 1 shows the whole world across the width, each step doubles; drawn at most at view.maxZoom")
    public static let near = RPCParam<Near>(
        "near", .string, "a place (geocoded), \"LAT,LON\", or an object {latitude, longitude}: the view around it, with radiusKm"
    ) { params throws(RPCError) in try MapParams.readNear(params) } write: { near in
        switch near {
        case .place(let text): .string(text)
        case .point(let point): MapParams.point(json: point)
        }
    }
    public static let radiusKm = RPCParam<Double>.number("radiusKm", in: radiusRange, "with near: the radius that fits in view (default 500)")
    public static let charset = RPCParam<Charset>.choice("charset", "\"braille\" (2×4 dots a cell, default) or \"ascii\"")
    public static let labels = RPCParam<Bool>.boolean(
        "labels", "name countries and places where they fit, and number the pins (default true)")
    public static let parameters = [width, height].map(\.parameter) + [fit.parameter, center.parameter, zoom.parameter]
        + [near.parameter, radiusKm.parameter, charset.parameter, labels.parameter]

    public var width: Int?
    public var height: Int?
    /// At most one of `fit`, `center` and `near`; none: the world.
    public var fit: Fit?
    public var center: Point?
    /// With `center` only.
    public var zoom: Double?
    public var near: Near?
    /// With `near` only.
    public var radiusKm: Double?
    public var charset: Charset?
    /// Nil: true.
    public var labels: Bool?

    public init(
        width: Int? = nil, height: Int? = nil, fit: Fit? = nil, center: Point? = nil, zoom: Double? = nil, near: Near? = nil,
        radiusKm: Double? = nil, charset: Charset? = nil, labels: Bool? = nil
    ) {
        self.width = width
        self.height = height
        self.fit = fit
        self.center = center
        self.zoom = zoom
        self.near = near
        self.radiusKm = radiusKm
        self.charset = charset
        self.labels = labels
    }

    public var params: WireJSON? {
        var writer = RPCParamsWriter()
        writer.add(Self.width, width)
        writer.add(Self.height, height)
        writer.add(Self.charset, charset)
        writer.add(Self.fit, fit)
        writer.add(Self.center, center)
        writer.add(Self.zoom, zoom)
        writer.add(Self.near, near)
        writer.add(Self.radiusKm, radiusKm)
        writer.add(Self.labels, labels)
        return writer.params
    }
}
