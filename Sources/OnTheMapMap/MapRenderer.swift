import OnTheMapModels
/// A drawn map: what the `map` method answers.
public struct MapPicture: Sendable {
    /// `height` strings of exactly `width` one-column characters.
    public var rows: [String]
    /// `height` strings of `width` style codes (see `MapStyle`), one per cell.
    public var styles: [String]
    /// The pins in view, numbered.
    public var pins: [PlacedPin]
    public var view: MapView
}

/// Draws maps: the world's land, coasts and borders, then the pins on top.
public enum MapRenderer {
    /// The smallest and largest sizes in cells.
    public static let minimumSize = (width: 10, height: 5)
    public static let maximumSide = 1000

    /// Draws `pins` (the user's own marked `mine`) in the view `request` resolves to.
    public static func render(
        width: Int, height: Int, request: MapViewRequest, charset: MapCharset, pins: [MapPin],
        world: WorldData = .embedded
    ) -> MapPicture {
        let view = request.resolve(width: width, height: height, pins: pins)
        var rasterizer = WorldRasterizer(world: world, view: view)
        rasterizer.draw()
        let layout = PinLayout(pins: pins, view: view)
        var rows: [String] = []
        var styles: [String] = []
        rows.reserveCapacity(height)
        styles.reserveCapacity(height)
        var glyphs: [UInt8] = []
        var codes: [UInt8] = []
        glyphs.reserveCapacity(3 * width)
        codes.reserveCapacity(width)
        for row in 0..<height {
            glyphs.removeAll(keepingCapacity: true)
            codes.removeAll(keepingCapacity: true)
            for col in 0..<width {
                let pins = layout.cells[row * width + col]
                if pins != 0 {
                    let count = Int(pins & ~PinLayout.mineFlag)
                    // The user's own pin keeps its style; in a cell it shares, the cell still says how
                    // many pins are there (a client without colour shows "@": `MapStyle.mine`).
                    let mine = pins & PinLayout.mineFlag != 0
                    let glyph = count > 1 ? MapGlyphs.cluster(count) : mine ? MapGlyphs.mine : MapGlyphs.pin
                    let style: MapStyle = mine ? .mine : count > 1 ? .cluster : .pin
                    glyphs.append(glyph)
                    codes.append(style.rawValue)
                    continue
                }
                let outline = rasterizer.outline.cellBits(row: row, col: col)
                let land = rasterizer.land.cellBits(row: row, col: col)
                codes.append(outline != 0 ? MapStyle.border.rawValue : land != 0 ? MapStyle.land.rawValue : MapStyle.water.rawValue)
                switch charset {
                case .braille:
                    MapGlyphs.appendBraille(outline | land & MapGlyphs.stipple(col: col), to: &glyphs)
                case .ascii:
                    glyphs.append(
                        outline != 0 ? MapGlyphs.asciiOutline[Int(outline)] : land != 0 ? MapGlyphs.asciiLand : UInt8(ascii: " "))
                }
            }
            rows.append(String(decoding: glyphs, as: UTF8.self))
            styles.append(String(decoding: codes, as: UTF8.self))
        }
        return MapPicture(rows: rows, styles: styles, pins: layout.placed, view: view)
    }
}
