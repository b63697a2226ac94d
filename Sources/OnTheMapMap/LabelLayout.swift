/// Which names a view shows, and where: countries by prominence, then places by population, each
/// only where it fits without touching a pin, a pin's number or another name, and a country only
/// where it is drawn large enough to carry its name (no "Saint Pierre and Miquelon" on a dot of land
/// while the Netherlands go unnamed).
///
/// How much is named follows the scale, as on a printed map: the whole world names only the most
/// prominent countries, a continent adds the largest cities, a country its towns of 50,000.
enum LabelLayout {
    /// How many times the world, drawn on this view, is wider than on an 80-column world map: what
    /// decides how much detail names add (a wide terminal at zoom 1 has room for what a narrow one
    /// has at zoom 2).
    static func scale(_ view: MapView) -> Double {
        Double(view.width) * view.zoom / 80
    }

    /// The least prominent country named (Natural Earth's label ranks: 2 for the largest, to 7).
    static func maximumCountryRank(scale: Double) -> UInt8 {
        scale < 1.5 ? 3 : scale < 3 ? 4 : scale < 6 ? 5 : 7
    }

    /// The smallest place named.
    static func minimumPopulation(scale: Double) -> UInt32 {
        switch scale {
        case ..<1.5: 20_000_000
        case ..<3: 8_000_000
        case ..<6: 3_000_000
        case ..<12: 1_000_000
        case ..<24: 400_000
        case ..<48: 150_000
        default: 50_000
        }
    }

    /// Writes the names that fit onto `canvas`, which holds the pins already.
    static func place(on canvas: inout MapCanvas, view: MapView, labels: MapLabels, ascii: Bool) {
        let scale = scale(view)
        let maximumRank = maximumCountryRank(scale: scale)
        for index in 0..<labels.countryCount {
            let entry = labels.entry(index)
            let size = dots(entry.extent, view)
            guard entry.rank <= maximumRank, size >= minimumCountryDots, let (row, col) = cell(entry, view) else { continue }
            // Centred on its label point; a country three rows tall or more may have it a row above or
            // below (a pin on the point), before its short name is used ("Austl." is no
            // "Australia"); the full name first, then the short one.
            let rows = size >= largeCountryDots ? [row, row - 1, row + 1] : [row]
            placing: for name in [labels.name(entry, ascii: ascii), labels.shortName(entry)] where !name.isEmpty {
                let text = scalars(name)
                let start = col - text.count / 2
                for row in rows where canvas.hasRoomForName(row: row, col: start, length: text.count) {
                    canvas.writeName(row: row, col: start, text)
                    break placing
                }
            }
        }
        let minimum = minimumPopulation(scale: scale)
        for index in labels.countryCount..<labels.countryCount + labels.placeCount {
            let entry = labels.entry(index)
            // Places are stored most populous first.
            guard entry.population >= minimum else { break }
            // A point under another name already (a city's neighbour at this scale) is left unnamed:
            // beside that name, it would read as naming the wrong place.
            guard let (row, col) = cell(entry, view), !canvas.isNamed(row: row, col: col) else { continue }
            let text = scalars(labels.name(entry, ascii: ascii))
            // Centred on the place; else beside it, a cell apart: right of it (after a pin there and its
            // number, "*7 Lyon"), else left of it. A pin on a city is common: students pin their city.
            let candidates = [col - text.count / 2, col + 2, col + 3, col + 4, col + 5, col - text.count - 1]
            for start in candidates where canvas.hasRoomForName(row: row, col: start, length: text.count) {
                canvas.writeName(row: row, col: start, text)
                break
            }
        }
    }

    /// How large, in dots, a country must be drawn to be named: a cell across (two dots), half a
    /// cell down. At an 80-column world that is about New Zealand's size, at 200 columns Belgium's.
    static let minimumCountryDots = 2.0

    /// How large, in dots, a country must be drawn for its name to go a row above or below its
    /// point: three rows (four dots a row).
    static let largeCountryDots = 12.0

    /// `quanta` of the world's width, in dots of this view.
    static func dots(_ quanta: Int32, _ view: MapView) -> Double {
        Double(quanta) / Double(WorldData.quanta) * view.dotsPerWorld
    }

    /// The cell of a label's point, or nil outside the view.
    static func cell(_ entry: MapLabels.Entry, _ view: MapView) -> (row: Int, col: Int)? {
        let (x, y) = dot(entry, view)
        let col = Int((x / 2).rounded(.down))
        let row = Int((y / 4).rounded(.down))
        guard (0..<view.width).contains(col), (0..<view.height).contains(row) else { return nil }
        return (row, col)
    }

    /// The dot of a label's point, on the copy of the world nearest the view's left edge at or right of it.
    static func dot(_ entry: MapLabels.Entry, _ view: MapView) -> (x: Double, y: Double) {
        let quanta = Double(WorldData.quanta)
        var dx = Double(entry.x) / quanta - view.left
        dx -= dx.rounded(.down)
        return (dx * view.dotsPerWorld, (Double(entry.y) / quanta - view.top) * view.dotsPerWorld)
    }

    private static func scalars(_ utf8: [UInt8]) -> [UInt32] {
        String(decoding: utf8, as: UTF8.self).unicodeScalars.map(\.value)
    }
}
