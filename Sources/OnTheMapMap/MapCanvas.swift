/// The cells of a map being drawn: a character and a style code each, and which cells pins and names
/// already hold, so nothing drawn later covers them.
struct MapCanvas {
    let width: Int
    let height: Int
    /// One Unicode scalar a cell (braille, ASCII, or a letter of a name), row by row.
    private(set) var scalars: [UInt32]
    /// One `MapStyle` code a cell.
    private(set) var styles: [UInt8]
    /// Cells a pin, a pin's number or a name holds.
    private(set) var taken: [Bool]
    /// Cells that hold a name, for the gap names keep between them.
    private(set) var named: [Bool]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        scalars = [UInt32](repeating: 0x20, count: width * height)
        styles = [UInt8](repeating: MapStyle.water.rawValue, count: width * height)
        taken = [Bool](repeating: false, count: width * height)
        named = taken
    }

    /// Sets a cell of the map itself (land, water, outline).
    @inline(__always)
    mutating func paint(_ index: Int, scalar: UInt32, style: UInt8) {
        scalars[index] = scalar
        styles[index] = style
    }

    /// Puts a pin's glyph (or a digit of its number) in a cell and keeps it there.
    mutating func mark(row: Int, col: Int, _ glyph: UInt8, style: MapStyle) {
        let index = row * width + col
        scalars[index] = UInt32(glyph)
        styles[index] = style.rawValue
        taken[index] = true
    }

    func isTaken(row: Int, col: Int) -> Bool {
        taken[row * width + col]
    }

    func isNamed(row: Int, col: Int) -> Bool {
        named[row * width + col]
    }

    /// Whether `length` cells from `col` are free, with a free cell (or the edge) on either side, and
    /// no name in the rows just above and below: names apart enough to read as two.
    func hasRoomForName(row: Int, col: Int, length: Int) -> Bool {
        guard row >= 0, row < height, col >= 0, col + length <= width else { return false }
        let from = max(col - 1, 0)
        let to = min(col + length, width - 1)
        for c in from...to where taken[row * width + c] { return false }
        for r in [row - 1, row + 1] where r >= 0 && r < height {
            for c in from...to where named[r * width + c] { return false }
        }
        return true
    }

    /// Writes a name's scalars from `col` in the name style.
    mutating func writeName(row: Int, col: Int, _ text: [UInt32]) {
        for (offset, scalar) in text.enumerated() {
            let index = row * width + col + offset
            scalars[index] = scalar
            styles[index] = MapStyle.name.rawValue
            taken[index] = true
            named[index] = true
        }
    }

    /// The rows and styles as `MapPicture` holds them.
    func encoded() -> (rows: [String], styles: [String]) {
        var rows: [String] = []
        var styleRows: [String] = []
        rows.reserveCapacity(height)
        styleRows.reserveCapacity(height)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 * width)
        for row in 0..<height {
            bytes.removeAll(keepingCapacity: true)
            for index in row * width..<(row + 1) * width {
                Self.appendUTF8(scalars[index], to: &bytes)
            }
            rows.append(String(decoding: bytes, as: UTF8.self))
            styleRows.append(String(decoding: styles[row * width..<(row + 1) * width], as: UTF8.self))
        }
        return (rows, styleRows)
    }

    @inline(__always)
    static func appendUTF8(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(scalar))
        case 0x80..<0x800:
            bytes.append(0xC0 | UInt8(scalar >> 6))
            bytes.append(0x80 | UInt8(scalar & 0x3F))
        default:
            bytes.append(0xE0 | UInt8(scalar >> 12))
            bytes.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            bytes.append(0x80 | UInt8(scalar & 0x3F))
        }
    }
}
