import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC

/// `map {width?, height?, fit? | center+zoom? | near+radiusKm?, charset?}` → `{rows, styles, pins, view}`.
enum MapMethod: RPCMethod {
    static let name = "map"
    static let summary = """
        The world with the cached students' pins, drawn in terminal cells: {rows, styles, pins, view}; requires login.
        """
    static let params: [(String, String, Bool, String)] = [
        ("width", "integer", false, "cells across, 10…1000 (default 80)"),
        ("height", "integer", false, "cells down, 5…1000 (default 24)"),
        ("fit", "string", false, "\"world\" (the default view) or \"pins\""),
        ("center", "object", false, "{latitude, longitude}: the view's centre, with zoom"),
        ("zoom", "number", false, "with center: 1 shows the whole world across the width, each step doubles (up to 4096)"),
        ("near", "string", false, "a place (geocoded), \"LAT,LON\", or an object {latitude, longitude}: the view around it, with radiusKm"),
        ("radiusKm", "number", false, "with near: the radius that fits in view (default 500)"),
        ("charset", "string", false, "\"braille\" (2×4 dots a cell, default) or \"ascii\""),
    ]

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .value(try await daemon.map(try MapRequest(params)).wireJSON)
    }
}

/// The params of `map`, read and checked in one place.
struct MapRequest: Sendable {
    /// Where the view is: resolved already, or a place the daemon geocodes first.
    enum Where: Sendable {
        case view(MapViewRequest)
        case place(String, radiusKm: Double)
    }

    var width = 80
    var height = 24
    var place: Where = .view(.world)
    var charset = MapCharset.braille

    static let defaultRadiusKm = 500.0

    init(_ params: WireJSON?) throws(RPCError) {
        let reader = try RPCParams(params, allowed: MapMethod.allowedParams)
        width = try reader.int("width", in: MapRenderer.minimumSize.width...MapRenderer.maximumSide) ?? width
        height = try reader.int("height", in: MapRenderer.minimumSize.height...MapRenderer.maximumSide) ?? height
        if let name = try reader.string("charset") {
            guard let value = MapCharset(rawValue: name) else { throw .invalidParams(field: "charset", "must be \"braille\" or \"ascii\"") }
            charset = value
        }
        let fit = try reader.string("fit")
        let center = try reader.object("center", allowed: ["latitude", "longitude"])
        let zoom = try reader.double("zoom", in: MapView.zoomRange)
        let radius = try reader.double("radiusKm", in: 0.1...20_100)
        let near = try Self.near(reader)
        guard [fit != nil, center != nil, near != nil].filter({ $0 }).count <= 1 else {
            throw .invalidParams(field: "fit", "goes alone: give one of fit, center and near")
        }
        if zoom != nil, center == nil { throw .invalidParams(field: "zoom", "needs center") }
        if radius != nil, near == nil { throw .invalidParams(field: "radiusKm", "needs near") }
        let radiusKm = radius ?? Self.defaultRadiusKm
        if let fit {
            switch fit {
            case "world": place = .view(.world)
            case "pins": place = .view(.pins)
            default: throw .invalidParams(field: "fit", "must be \"world\" or \"pins\"")
            }
        } else if let center {
            let (latitude, longitude) = try Self.coordinates(center, field: "center")
            place = .view(.center(latitude: latitude, longitude: longitude, zoom: zoom ?? 1))
        } else if case .place(let text)? = near {
            place = .place(text, radiusKm: radiusKm)
        } else if case .point(let latitude, let longitude)? = near {
            place = .view(.near(latitude: latitude, longitude: longitude, radiusKm: radiusKm))
        }
    }

    private enum Near {
        case place(String)
        case point(Double, Double)
    }

    /// `near`: a place's name ("LAT,LON" counts as coordinates) or `{latitude, longitude}`.
    private static func near(_ reader: RPCParams) throws(RPCError) -> Near? {
        if let text = try? reader.string("near") {
            let parts = text.split(separator: ",").map { $0.trimmingWhitespace() }
            if parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            {
                return .point(latitude, longitude)
            }
            guard !text.trimmingWhitespace().isEmpty else { throw .invalidParams(field: "near", "is empty") }
            return .place(text)
        }
        let object: RPCParams?
        do {
            object = try reader.object("near", allowed: ["latitude", "longitude"])
        } catch {
            throw .invalidParams(field: "near", "must be a place or {latitude, longitude}")
        }
        guard let object else { return nil }
        let (latitude, longitude) = try coordinates(object, field: "near")
        return .point(latitude, longitude)
    }

    private static func coordinates(_ object: RPCParams, field: String) throws(RPCError) -> (Double, Double) {
        guard let latitude = try object.double("latitude", in: -90...90) else {
            throw .invalidParams(field: "\(field).latitude", "is required")
        }
        guard let longitude = try object.double("longitude", in: -180...180) else {
            throw .invalidParams(field: "\(field).longitude", "is required")
        }
        return (latitude, longitude)
    }
}
