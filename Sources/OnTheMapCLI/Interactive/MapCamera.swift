import Glibc
import OnTheMapModels
import OnTheMapRPC

/// Where the full-screen map looks: a centre and a zoom, moved by keys and the mouse, and kept in step
/// with the view the daemon actually drew (which stays inside the world, and no closer than it draws).
struct MapCamera: Equatable {
    var latitude: Double
    var longitude: Double
    var zoom: Double
    /// The closest the daemon draws at this width.
    var maxZoom: Double

    static let zoomRange = MapParams.zoomRange

    /// The camera of a `map` result's view.
    init(view: MapResult.View) {
        var longitude = (view.west + view.east) / 2
        if longitude >= 180 { longitude -= 360 }
        self.longitude = longitude
        latitude = Self.latitude(y: (Self.y(latitude: view.north) + Self.y(latitude: view.south)) / 2)
        zoom = view.zoom
        maxZoom = view.maxZoom
    }

    /// Moves by `dx`, `dy` quarters of the view (`width`×`height` cells).
    mutating func pan(dx: Double, dy: Double, width: Int, height: Int) {
        pan(cellsX: dx * Double(width) / 4, cellsY: dy * Double(height) / 4, width: width)
    }

    /// Moves the centre by whole cells of a view `width` cells wide (a cell is 2 by 4 dots, and the
    /// world `2 × width × zoom` dots wide).
    mutating func pan(cellsX: Double, cellsY: Double, width: Int) {
        var lon = longitude + cellsX * 360 / (Double(width) * zoom)
        lon -= 360 * ((lon + 180) / 360).rounded(.down)
        longitude = lon
        latitude = Self.latitude(y: Self.y(latitude: latitude) + cellsY * 4 / (2 * Double(width) * zoom))
    }

    /// Zooms by `factor`; with `around` (a cell of the view), that cell's point stays where it is.
    mutating func zoom(by factor: Double, around cell: (row: Int, col: Int)? = nil, width: Int = 0, height: Int = 0) {
        let before = zoom
        zoom = min(max(zoom * factor, Self.zoomRange.lowerBound), max(maxZoom, Self.zoomRange.lowerBound))
        guard let cell, width > 0, zoom != before else { return }
        // The cell's offset from the centre, in cells; after zooming it is `before / zoom` as far.
        let dx = Double(cell.col) + 0.5 - Double(width) / 2
        let dy = Double(cell.row) + 0.5 - Double(height) / 2
        let kept = 1 - before / zoom
        let saved = zoom
        zoom = before
        pan(cellsX: dx * kept, cellsY: dy * kept, width: width)
        zoom = saved
    }

    /// Whether zooming in any further would draw nothing new.
    var isAtMaxZoom: Bool { zoom >= maxZoom * 0.999 }

    var place: MapWhere { .center(latitude: min(max(latitude, -85), 85), longitude: longitude, zoom: zoom) }

    static func y(latitude: Double) -> Double {
        let clipped = min(max(latitude, -85.0511287798066), 85.0511287798066) * .pi / 180
        return (1 - log(tan(.pi / 4 + clipped / 2)) / .pi) / 2
    }

    static func latitude(y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }
}
