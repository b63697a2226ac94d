/// The world's outlines as SVG path data, in quanta (the whole world is 65535 wide and high).
public enum WorldPaths {
    /// The level of detail documents use: simplified by at most 6 quanta, a tenth of a pixel on a
    /// 1,000-pixel-wide world, so zooming in a browser stays sharp for a while.
    static let documentTolerance = 6

    /// Land: every coast ring, closed; fill with `fill-rule="evenodd"`.
    public static func land(_ world: WorldData = .embedded) -> String {
        path(world, polygons: true)
    }

    /// Borders between countries: open lines, stroke only.
    public static func borders(_ world: WorldData = .embedded) -> String {
        path(world, polygons: false)
    }

    private static func path(_ world: WorldData, polygons: Bool) -> String {
        let level = documentLevel(world)
        return path(world, polygons: polygons, features: Array(0..<(polygons ? level.polygonCount : level.lineCount)))
    }

    /// The level of detail documents draw.
    static func documentLevel(_ world: WorldData) -> WorldData.Level {
        world.levels.first { $0.tolerance <= documentTolerance } ?? world.levels[world.levels.count - 1]
    }

    /// Path data for some of the document level's rings (`polygons`) or lines, by index.
    static func path(_ world: WorldData, polygons: Bool, features: [Int]) -> String {
        let level = documentLevel(world)
        var bytes: [UInt8] = []
        for index in features {
            let feature = world.feature(table: polygons ? level.polygonTable : level.lineTable, index: index)
            var previous: (Int32, Int32)?
            world.forEachPoint(of: feature) { x, y in
                if let (px, py) = previous {
                    // Relative moves are short: most are one or two digits.
                    bytes.append(UInt8(ascii: " "))
                    append(x - px, to: &bytes)
                    bytes.append(UInt8(ascii: " "))
                    append(y - py, to: &bytes)
                } else {
                    bytes.append(UInt8(ascii: "M"))
                    append(x, to: &bytes)
                    bytes.append(UInt8(ascii: " "))
                    append(y, to: &bytes)
                    bytes.append(UInt8(ascii: "l"))
                }
                previous = (x, y)
            }
            if polygons { bytes.append(UInt8(ascii: "z")) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func append(_ value: Int32, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
    }
}
