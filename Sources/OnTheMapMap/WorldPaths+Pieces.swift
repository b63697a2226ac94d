/// The world's outlines in pieces, one path each, for a browser to draw.
///
/// A browser rasterises a layer in tiles, and draws into each tile every path whose bounds cross it:
/// the world as two paths, each crossing every tile, had each of a screen's tiles walk all 32,000
/// points of the coasts. In pieces of nearby rings, a tile walks only the pieces over it.
extension WorldPaths {
    /// Land, in pieces: each holds the coast rings whose bounds are centred in one cell of a
    /// `cells` × `cells` grid over the world, and the rings inside those (a lake, an island in it:
    /// an even-odd fill makes a hole only of a ring in the same path). Fill each with
    /// `fill-rule="evenodd"`.
    public static func landPieces(_ world: WorldData = .embedded, cells: Int = 8) -> [String] {
        let level = documentLevel(world)
        let rings = (0..<level.polygonCount).map { world.feature(table: level.polygonTable, index: $0) }
        let cell = rings.indices.map { index in
            piece(of: outermost(index, in: rings, world: world), in: rings, cells: cells)
        }
        return pieces(world, polygons: true, cell: cell, cells: cells)
    }

    /// Borders between countries, in pieces: each holds the lines whose bounds are centred in one
    /// cell of a `cells` × `cells` grid over the world. Stroke only.
    public static func borderPieces(_ world: WorldData = .embedded, cells: Int = 8) -> [String] {
        let level = documentLevel(world)
        let lines = (0..<level.lineCount).map { world.feature(table: level.lineTable, index: $0) }
        return pieces(world, polygons: false, cell: lines.indices.map { piece(of: $0, in: lines, cells: cells) }, cells: cells)
    }

    /// The paths of the non-empty cells, in the cells' order.
    private static func pieces(_ world: WorldData, polygons: Bool, cell: [Int], cells: Int) -> [String] {
        var members = [[Int]](repeating: [], count: cells * cells)
        for (index, at) in cell.enumerated() { members[at].append(index) }
        return members.filter { !$0.isEmpty }.map { path(world, polygons: polygons, features: $0) }
    }

    /// The grid cell of a feature's bounds' centre.
    private static func piece(of index: Int, in features: [WorldData.Feature], cells: Int) -> Int {
        let feature = features[index]
        func cell(_ low: Int32, _ high: Int32) -> Int { min(Int(low + high) / 2 * cells / (WorldData.quanta + 1), cells - 1) }
        return cell(feature.minY, feature.maxY) * cells + cell(feature.minX, feature.maxX)
    }

    /// The widest ring that `index` lies inside (its bounds hold the ring's, and its outline its first
    /// point), or `index` itself.
    private static func outermost(_ index: Int, in rings: [WorldData.Feature], world: WorldData) -> Int {
        let ring = rings[index]
        var first: (Int32, Int32)?
        world.forEachPoint(of: ring) { x, y in if first == nil { first = (x, y) } }
        guard let point = first else { return index }
        var best = index
        for (other, outer) in rings.enumerated() where other != index
            && outer.minX <= ring.minX && outer.maxX >= ring.maxX && outer.minY <= ring.minY && outer.maxY >= ring.maxY
            && (outer.maxX - outer.minX) > (rings[best].maxX - rings[best].minX)
            && contains(outer, point, world: world) {
            best = other
        }
        return best
    }

    /// Whether a ring's outline holds a point (crossings of a ray to the east, by parity).
    private static func contains(_ ring: WorldData.Feature, _ point: (Int32, Int32), world: WorldData) -> Bool {
        var inside = false
        var first: (Int64, Int64)?
        var previous: (Int64, Int64)?
        let (px, py) = (Int64(point.0), Int64(point.1))
        func cross(_ a: (Int64, Int64), _ b: (Int64, Int64)) {
            guard (a.1 > py) != (b.1 > py) else { return }
            // x of the edge at py, compared without dividing: px < a.x + (py - a.y)(b.x - a.x)/(b.y - a.y).
            let lhs = (px - a.0) * (b.1 - a.1)
            let rhs = (py - a.1) * (b.0 - a.0)
            if b.1 > a.1 ? lhs < rhs : lhs > rhs { inside.toggle() }
        }
        world.forEachPoint(of: ring) { x, y in
            let here = (Int64(x), Int64(y))
            if let previous { cross(previous, here) } else { first = here }
            previous = here
        }
        if let first, let previous { cross(previous, first) }
        return inside
    }
}
