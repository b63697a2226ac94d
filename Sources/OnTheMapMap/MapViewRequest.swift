/// How a caller says what to show; `resolve` turns it into a `MapView`.
public enum MapViewRequest: Sendable, Equatable {
    /// The whole world across the width, centred on the inhabited latitudes when it is cut.
    case world
    /// The smallest view holding every pin (the world when there are none).
    case pins
    case center(latitude: Double, longitude: Double, zoom: Double)
    /// A radius in kilometres around a point fits in the view's shorter half.
    case near(latitude: Double, longitude: Double, radiusKm: Double)

    /// The most `.pins` zooms in, so one pin or a tight group still shows its surroundings.
    public static let pinsMaxZoom = 64.0
    /// The latitudes `.world` keeps in view when it cannot show all: Tierra del Fuego to Greenland.
    static let inhabited = (south: -56.0, north: 80.0)

    public func resolve(width: Int, height: Int, pins: [MapPoint]) -> MapView {
        switch self {
        case .world:
            return worldView(width: width, height: height)
        case .center(let latitude, let longitude, let zoom):
            return MapView(width: width, height: height, latitude: latitude, longitude: longitude, zoom: zoom)
        case .near(let latitude, let longitude, let radiusKm):
            let shorterHalf = min(0.5, Double(height) / Double(width))
            let zoom = shorterHalf * Mercator.kilometresPerUnit(atLatitude: latitude) / max(radiusKm, 0.001)
            return MapView(width: width, height: height, latitude: latitude, longitude: longitude, zoom: zoom)
        case .pins:
            guard !pins.isEmpty else { return worldView(width: width, height: height) }
            return pinsView(width: width, height: height, pins: pins)
        }
    }

    private func worldView(width: Int, height: Int) -> MapView {
        // Centred on the inhabited band: a taller view grows both ways inside the world, a shorter
        // one (a wide terminal) loses a little of each end. Kept at the top instead, a 200×40 view
        // reached only 4°S.
        let north = Mercator.y(latitude: Self.inhabited.north)
        let south = Mercator.y(latitude: Self.inhabited.south)
        return MapView(width: width, height: height, centerX: 0.5, centerY: (north + south) / 2, zoom: 1)
    }

    private func pinsView(width: Int, height: Int, pins: [MapPoint]) -> MapView {
        // Longitudes wrap: the pins' span is the circle less its widest empty gap.
        let xs = pins.map { Mercator.x(longitude: $0.longitude) }.map { $0 - $0.rounded(.down) }.sorted()
        var gapEnd = xs[0]
        var widestGap = xs[0] + 1 - xs[xs.count - 1]
        for (previous, next) in zip(xs, xs.dropFirst()) where next - previous > widestGap {
            widestGap = next - previous
            gapEnd = next
        }
        let spanX = 1 - widestGap
        let ys = pins.map { Mercator.y(latitude: $0.latitude) }
        let (minY, maxY) = (ys.min()!, ys.max()!)
        // A cell of margin on each side.
        let usableWidth = Double(max(width - 2, 1)) / Double(width)
        let usableHeight = Double(max(height - 2, 1)) / Double(height)
        let zoomX = spanX > 0 ? usableWidth / spanX : .infinity
        let zoomY = maxY > minY ? usableHeight * Double(2 * height) / Double(width) / (maxY - minY) : .infinity
        let zoom = min(zoomX, zoomY, Self.pinsMaxZoom)
        return MapView(width: width, height: height, centerX: gapEnd + spanX / 2, centerY: (minY + maxY) / 2, zoom: zoom)
    }
}
