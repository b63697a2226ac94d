/// Draws the world's land (filled) and outlines (coasts and borders) onto dot grids for a view.
struct WorldRasterizer {
    let world: WorldData
    let view: MapView
    private(set) var land: DotGrid
    private(set) var outline: DotGrid

    init(world: WorldData, view: MapView) {
        self.world = world
        self.view = view
        land = DotGrid(width: view.dotsWide, height: view.dotsHigh)
        outline = DotGrid(width: view.dotsWide, height: view.dotsHigh)
    }

    /// Fills and outlines every feature the view can see, on each copy of the world it shows.
    mutating func draw() {
        let quanta = Double(WorldData.quanta)
        let scale = view.dotsPerWorld / quanta
        let level = world.level(forQuantaPerDot: quanta / view.dotsPerWorld)
        let offsetY = -view.top * view.dotsPerWorld
        // The view spans at most one world's width, starting in (-0.5, 1): copies -1, 0 and 1 cover it.
        for copy in -1...1 {
            let offsetX = (Double(copy) - view.left) * view.dotsPerWorld
            let transform = DotTransform(scale: scale, offsetX: offsetX, offsetY: offsetY)
            guard transform.x(0) < Double(view.dotsWide), transform.x(Int32(WorldData.quanta)) > 0 else { continue }
            for index in 0..<level.polygonCount {
                let feature = world.feature(table: level.polygonTable, index: index)
                guard isVisible(feature, transform) else { continue }
                drawPolygon(feature, transform)
            }
            for index in 0..<level.lineCount {
                let feature = world.feature(table: level.lineTable, index: index)
                guard isVisible(feature, transform) else { continue }
                drawLine(feature, transform)
            }
        }
        land.accumulateRows()
    }

    private func isVisible(_ feature: WorldData.Feature, _ transform: DotTransform) -> Bool {
        transform.x(feature.maxX) >= 0 && transform.x(feature.minX) < Double(view.dotsWide)
            && transform.y(feature.maxY) >= 0 && transform.y(feature.minY) < Double(view.dotsHigh)
    }

    /// A closed coast ring: toggles the fill where its edges cross dot rows, and draws its edges.
    private mutating func drawPolygon(_ feature: WorldData.Feature, _ transform: DotTransform) {
        var first: (Int32, Int32)?
        var previous: (Int32, Int32) = (0, 0)
        let world = self.world  // a copy: the closure below mutates self
        world.forEachPoint(of: feature) { x, y in
            if first == nil {
                first = (x, y)
            } else {
                edge(from: previous, to: (x, y), transform, fill: true)
            }
            previous = (x, y)
        }
        if let first { edge(from: previous, to: first, transform, fill: true) }
    }

    /// An open border line: drawn only.
    private mutating func drawLine(_ feature: WorldData.Feature, _ transform: DotTransform) {
        var previous: (Int32, Int32)?
        let world = self.world  // a copy: the closure below mutates self
        world.forEachPoint(of: feature) { x, y in
            if let previous { edge(from: previous, to: (x, y), transform, fill: false) }
            previous = (x, y)
        }
    }

    @inline(__always)
    private mutating func edge(from a: (Int32, Int32), to b: (Int32, Int32), _ transform: DotTransform, fill: Bool) {
        let (ax, ay) = (transform.x(a.0), transform.y(a.1))
        let (bx, by) = (transform.x(b.0), transform.y(b.1))
        if fill { toggleCrossings(ax, ay, bx, by) }
        // Edges along the world's cut (the antimeridian, the Mercator cut-off) close rings but are
        // no coast.
        let limit = Int32(WorldData.quanta)
        if (a.0 == b.0 && (a.0 == 0 || a.0 == limit)) || (a.1 == b.1 && (a.1 == 0 || a.1 == limit)) { return }
        plot(ax, ay, bx, by)
    }

    /// Toggles, on each dot row whose centre the edge crosses, the first dot whose centre lies right
    /// of the crossing; rows then fill by parity. Half-open in y, so a shared vertex counts once.
    @inline(__always)
    private mutating func toggleCrossings(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        guard ay != by else { return }
        let (x0, y0, x1, y1) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
        let firstRow = max(Int((y0 - 0.5).rounded(.up)), 0)
        let lastRow = min(Int((y1 - 0.5).rounded(.up)) - 1, view.dotsHigh - 1)
        guard firstRow <= lastRow else { return }
        let slope = (x1 - x0) / (y1 - y0)
        let width = view.dotsWide
        for row in firstRow...lastRow {
            let x = x0 + (Double(row) + 0.5 - y0) * slope
            let column = x < 0.5 ? 0 : Int((x - 0.5).rounded(.up))
            if column < width { land.toggle(column, row) }
        }
    }

    /// Sets the dots along a segment, clipped to the grid.
    @inline(__always)
    private mutating func plot(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        guard let (startX, startY, x1, y1) = clip(ax, ay, bx, by) else { return }
        var (x0, y0) = (startX, startY)
        let steps = Int(max(abs(x1 - x0), abs(y1 - y0)).rounded(.up))
        if steps == 0 {
            setDot(x0, y0)
            return
        }
        let dx = (x1 - x0) / Double(steps)
        let dy = (y1 - y0) / Double(steps)
        for _ in 0...steps {
            setDot(x0, y0)
            x0 += dx
            y0 += dy
        }
    }

    @inline(__always)
    private mutating func setDot(_ x: Double, _ y: Double) {
        let column = Int(x.rounded(.down))
        let row = Int(y.rounded(.down))
        if column >= 0, column < view.dotsWide, row >= 0, row < view.dotsHigh { outline.set(column, row) }
    }

    /// Liang–Barsky: the part of a segment inside the grid, or nil.
    @inline(__always)
    private func clip(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> (Double, Double, Double, Double)? {
        let dx = bx - ax
        let dy = by - ay
        var low = 0.0
        var high = 1.0
        guard Self.clipStep(-dx, ax, &low, &high), Self.clipStep(dx, Double(view.dotsWide) - ax, &low, &high),
            Self.clipStep(-dy, ay, &low, &high), Self.clipStep(dy, Double(view.dotsHigh) - ay, &low, &high)
        else { return nil }
        return (ax + low * dx, ay + low * dy, ax + high * dx, ay + high * dy)
    }

    @inline(__always)
    private static func clipStep(_ p: Double, _ q: Double, _ low: inout Double, _ high: inout Double) -> Bool {
        if p == 0 { return q >= 0 }
        let t = q / p
        if p < 0 { low = max(low, t) } else { high = min(high, t) }
        return low <= high
    }
}

/// Quanta to dots for one copy of the world.
struct DotTransform {
    let scale: Double
    let offsetX: Double
    let offsetY: Double

    @inline(__always) func x(_ quanta: Int32) -> Double { Double(quanta) * scale + offsetX }
    @inline(__always) func y(_ quanta: Int32) -> Double { Double(quanta) * scale + offsetY }
}
