/// A window onto the world: a centre, a zoom and a size in terminal cells.
///
/// Drawing happens on a grid of dots, 2 across and 4 down per cell, as braille has; a terminal cell is
/// about twice as tall as wide, so the dots are square and one scale serves both axes.
public struct MapView: Sendable, Equatable {
    /// The zooms asked for are taken in: 1 shows the whole world across the width, each step doubles.
    /// A view draws at most `maximumZoom(width:)`.
    public static let zoomRange: ClosedRange<Double> = 1...4096

    /// The finest the outlines are drawn: 32,768 dots across the world, 1.2 km a dot at the equator.
    /// Natural Earth's 1:50m outlines have points every few kilometres; closer in, coasts became
    /// straight lines and a view could show nothing at all (zoom 4096: 39 of 40 rows blank).
    public static let maximumDotsPerWorld = 32_768.0

    /// The closest zoom a view `width` cells wide draws: the same detail on any terminal (an 80-column
    /// view stops at 204.8, a 200-column one at 81.92).
    public static func maximumZoom(width: Int) -> Double {
        max(zoomRange.lowerBound, min(zoomRange.upperBound, maximumDotsPerWorld / Double(2 * max(width, 1))))
    }

    public let width: Int
    public let height: Int
    /// Mercator x of the centre, wrapped into 0..<1.
    public let centerX: Double
    /// Mercator y of the centre; kept so the view stays inside the world when it is smaller.
    public let centerY: Double
    public let zoom: Double

    /// A view of `width`×`height` cells around a Mercator point.
    public init(width: Int, height: Int, centerX: Double, centerY: Double, zoom: Double) {
        self.width = width
        self.height = height
        self.zoom = min(max(zoom, Self.zoomRange.lowerBound), Self.maximumZoom(width: width))
        let wrapped = centerX - centerX.rounded(.down)
        self.centerX = wrapped
        let spanY = Double(4 * height) / (Double(2 * width) * self.zoom)
        self.centerY = spanY >= 1 ? 0.5 : min(max(centerY, spanY / 2), 1 - spanY / 2)
    }

    /// A view around a coordinate.
    public init(width: Int, height: Int, latitude: Double, longitude: Double, zoom: Double) {
        self.init(
            width: width, height: height, centerX: Mercator.x(longitude: longitude), centerY: Mercator.y(latitude: latitude),
            zoom: zoom)
    }

    public var dotsWide: Int { 2 * width }
    public var dotsHigh: Int { 4 * height }
    /// How many dots the whole world's width takes.
    public var dotsPerWorld: Double { Double(dotsWide) * zoom }
    /// Mercator x of the left edge (may be below 0: the view then wraps).
    public var left: Double { centerX - 0.5 / zoom }
    /// Mercator y of the top edge (may be above the world in a tall view).
    public var top: Double { centerY - Double(dotsHigh) / 2 / dotsPerWorld }

    /// The view's edges in degrees. `east` is `west` plus the view's span, so it passes 180 when the
    /// view crosses the antimeridian; `north`/`south` may pass ±85.05 when the view is taller than
    /// the world.
    public var bounds: (west: Double, south: Double, east: Double, north: Double) {
        var west = Mercator.longitude(x: left)
        if west < -180 { west += 360 }
        let bottom = top + Double(dotsHigh) / dotsPerWorld
        return (west, Mercator.latitude(y: bottom), west + 360 / zoom, Mercator.latitude(y: top))
    }

    /// The dot a coordinate falls on (fractional, may be outside the view), taking the copy of the
    /// world that puts it nearest the view's left edge at or to its right.
    public func dot(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        var dx = Mercator.x(longitude: longitude) - left
        dx -= dx.rounded(.down)
        return (dx * dotsPerWorld, (Mercator.y(latitude: latitude) - top) * dotsPerWorld)
    }

    /// The cell a coordinate falls in, or nil when it is outside the view.
    public func cell(latitude: Double, longitude: Double) -> (row: Int, col: Int)? {
        let (x, y) = dot(latitude: latitude, longitude: longitude)
        let col = Int((x / 2).rounded(.down))
        let row = Int((y / 4).rounded(.down))
        guard (0..<width).contains(col), (0..<height).contains(row) else { return nil }
        return (row, col)
    }
}
