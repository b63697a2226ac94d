#if canImport(Glibc)
import Glibc
#endif
import OnTheMapModels
import OnTheMapRPC

/// Where the full-screen map looks: a centre and a zoom, moved by keys and kept in step with the
/// view the daemon actually drew (which stays inside the world).
struct MapCamera: Equatable {
    var latitude: Double
    var longitude: Double
    var zoom: Double

    static let zoomRange = MapParams.zoomRange

    /// The camera of a `map` result's `view` ({west, south, east, north, zoom}).
    init?(view: WireJSON?) {
        guard let view, let west = view["west"]?.doubleValue, let east = view["east"]?.doubleValue,
            let north = view["north"]?.doubleValue, let south = view["south"]?.doubleValue, let zoom = view["zoom"]?.doubleValue
        else { return nil }
        var longitude = (west + east) / 2
        if longitude >= 180 { longitude -= 360 }
        self.longitude = longitude
        self.latitude = Self.latitude(y: (Self.y(latitude: north) + Self.y(latitude: south)) / 2)
        self.zoom = zoom
    }

    /// Moves by `dx`, `dy` quarters of the view (`width`×`height` cells).
    mutating func pan(dx: Double, dy: Double, width: Int, height: Int) {
        var lon = longitude + dx * 90 / zoom
        lon -= 360 * ((lon + 180) / 360).rounded(.down)
        longitude = lon
        let spanY = 2 * Double(height) / (Double(width) * zoom)
        latitude = Self.latitude(y: Self.y(latitude: latitude) + dy * spanY / 4)
    }

    mutating func zoom(by factor: Double) {
        zoom = min(max(zoom * factor, Self.zoomRange.lowerBound), Self.zoomRange.upperBound)
    }

    var place: MapWhere { .center(latitude: min(max(latitude, -85), 85), longitude: longitude, zoom: zoom) }

    static func y(latitude: Double) -> Double {
        let clipped = min(max(latitude, -85.0511287798066), 85.0511287798066) * .pi / 180
        return (1 - log(tan(.pi / 4 + clipped / 2)) / .pi) / 2
    }

    static func latitude(y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }
}
