/// How cells are drawn: braille (2×4 dots a cell) or plain ASCII.
public enum MapCharset: String, Sendable, CaseIterable {
    case braille
    case ascii
}

/// The code each cell gets in `styles`, so clients colour the map their own way.
public enum MapStyle: UInt8, Sendable, CaseIterable {
    case water = 0x20  // " "
    case land = 0x6C  // "l"
    case border = 0x62  // "b": coast or border
    case pin = 0x70  // "p"
    case mine = 0x6D  // "m": the user's own pin
    case cluster = 0x63  // "c": several pins, the glyph is their count
    case name = 0x6E  // "n": a country's or a place's name

    public var character: Character { Character(Unicode.Scalar(rawValue)) }
}

/// The glyphs of cells.
enum MapGlyphs {
    static let pin = UInt8(ascii: "*")
    static let mine = UInt8(ascii: "@")
    /// Shown for more than nine pins in one cell, and for a group with a pin beside it (its count
    /// would run into the neighbour's glyph or count).
    static let manyPins = UInt8(ascii: "+")

    /// A cluster's count: 2…9, then "+".
    static func cluster(_ count: Int) -> UInt8 {
        count <= 9 ? UInt8(ascii: "0") + UInt8(count) : manyPins
    }

    /// Land is stippled lightly (one dot in eight) so it shows, and takes colour, while outlines stand out.
    @inline(__always)
    static func stipple(col: Int) -> UInt8 {
        col & 1 == 0 ? 0x02 : 0x20
    }

    static let asciiLand = UInt8(ascii: ".")

    /// Below this scale (`LabelLayout.scale`: 1 for an 80-column world) ASCII draws the land's shape
    /// instead of its outlines.
    static let asciiOutlineScale = 4.0

    /// A cell's land as a shape, by braille bits of land or coast: `:` land through the cell, `'` in its
    /// upper half, `.` in its lower half or a speck, a space none. Four glyphs, so a small ASCII map
    /// reads as continents.
    static let asciiShape: [UInt8] = (0..<256).map { bits in
        let top = [0, 1, 3, 4].filter { bits >> $0 & 1 != 0 }.count
        let bottom = [2, 5, 6, 7].filter { bits >> $0 & 1 != 0 }.count
        switch (top >= 2, bottom >= 2) {
        case (true, true): return UInt8(ascii: ":")
        case (true, false): return UInt8(ascii: "'")
        case (false, true): return UInt8(ascii: ".")
        default: return top + bottom > 0 ? UInt8(ascii: ".") : UInt8(ascii: " ")
        }
    }

    /// The ASCII character closest to an outline's dots in a cell, by braille bits.
    static let asciiOutline: [UInt8] = (0..<256).map { outlineCharacter(UInt8($0)) }

    private static func outlineCharacter(_ bits: UInt8) -> UInt8 {
        // (x, y) of each braille bit.
        let positions = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3)]
        let dots = positions.enumerated().filter { bits >> UInt8($0.offset) & 1 != 0 }.map(\.element)
        guard !dots.isEmpty else { return UInt8(ascii: " ") }
        let columns = Set(dots.map(\.0)).count
        let ys = dots.map(\.1)
        let rowSpan = ys.max()! - ys.min()!
        if columns == 1 { return rowSpan >= 2 ? UInt8(ascii: "|") : UInt8(ascii: "'") }
        if rowSpan <= 1 { return ys.min()! >= 2 ? UInt8(ascii: "_") : UInt8(ascii: "-") }
        let left = dots.filter { $0.0 == 0 }.map(\.1)
        let right = dots.filter { $0.0 == 1 }.map(\.1)
        let leftMean = Double(left.reduce(0, +)) / Double(left.count)
        let rightMean = Double(right.reduce(0, +)) / Double(right.count)
        if rightMean - leftMean >= 1 { return UInt8(ascii: "\\") }
        if leftMean - rightMean >= 1 { return UInt8(ascii: "/") }
        return UInt8(ascii: "|")
    }
}
