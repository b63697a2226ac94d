import OnTheMapModels

/// A drawn map: what the `map` method answers.
public struct MapPicture: Sendable {
    /// `height` strings of exactly `width` one-column characters.
    public var rows: [String]
    /// `height` strings of `width` style codes (see `MapStyle`), one per cell.
    public var styles: [String]
    /// The pins in view, numbered.
    public var placements: [PinPlacement]
    /// How many of the pins given are not in view.
    public var outside: Int
    public var view: MapView
    /// The view's centre in words ("Leipzig, Germany"); empty for the whole world or open sea.
    public var placeName: String
}

/// Draws maps: the world's land, coasts and borders, then the pins, their numbers and the names of
/// countries and places on top.
public enum MapRenderer {
    /// The smallest and largest sizes in cells.
    public static let minimumSize = (width: 10, height: 5)
    public static let maximumSide = 1000

    /// Draws `pins` (the user's own marked `mine`) in the view `request` resolves to; with `labels`,
    /// names the countries and places that fit.
    public static func render(
        width: Int, height: Int, request: MapViewRequest, charset: MapCharset, pins: [MapPoint], labels: Bool = true,
        world: WorldData = .embedded, names: MapLabels = .embedded
    ) -> MapPicture {
        let view = request.resolve(width: width, height: height, pins: pins)
        var rasterizer = WorldRasterizer(world: world, view: view)
        rasterizer.draw()
        var canvas = MapCanvas(width: width, height: height)
        // ASCII has no dots: where a cell spans hundreds of kilometres, coasts and borders in it became
        // `|||'--` noise; shapes of land read better.
        let asciiShapes = charset == .ascii && LabelLayout.scale(view) < MapGlyphs.asciiOutlineScale
        for row in 0..<height {
            for col in 0..<width {
                let outline = rasterizer.outline.cellBits(row: row, col: col)
                let land = rasterizer.land.cellBits(row: row, col: col)
                let style = outline != 0 ? MapStyle.border : land != 0 ? MapStyle.land : MapStyle.water
                let scalar: UInt32
                switch charset {
                case .braille:
                    scalar = 0x2800 + UInt32(outline | land & MapGlyphs.stipple(col: col))
                case .ascii where asciiShapes:
                    scalar = UInt32(MapGlyphs.asciiShape[Int(outline | land)])
                case .ascii:
                    scalar = UInt32(outline != 0 ? MapGlyphs.asciiOutline[Int(outline)] : land != 0 ? MapGlyphs.asciiLand : 0x20)
                }
                canvas.paint(row * width + col, scalar: scalar, style: style.rawValue)
            }
        }
        let layout = PinLayout(pins: pins, view: view)
        layout.mark(on: &canvas)
        if labels { LabelLayout.place(on: &canvas, view: view, labels: names, ascii: charset == .ascii) }
        let (rows, styles) = canvas.encoded()
        return MapPicture(
            rows: rows, styles: styles, placements: layout.placements, outside: pins.count - layout.placements.count, view: view,
            placeName: names.placeName(near: view))
    }
}
