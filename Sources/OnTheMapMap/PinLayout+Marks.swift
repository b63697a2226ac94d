import OnTheMapModels

extension PinLayout {
    /// Draws every pin's glyph, then the numbers where they fit: after a student's pin, the number the
    /// legend gives it ("*12"), so the two can be matched by eye; in a group's cell, how many are
    /// there ("14", which would otherwise be "+").
    ///
    /// A count is a group's only where no other pin is beside it: digits in a row read as one number
    /// (groups of 3, 2, 4, 4, 2 and 2 side by side read "324422", and a "3" after a pin "*3", the pin
    /// numbered 3), so a group with a neighbour shows "+", as mapscii shows a marker without its
    /// label where the label has no room. Colour does not tell them apart either: groups share one.
    func mark(on canvas: inout MapCanvas) {
        var cells: [(row: Int, col: Int, count: Int, mine: Bool, n: Int)] = []
        for placement in placements {
            let (row, col, n) = (placement.cell.row, placement.cell.col, placement.cell.n)
            if let last = cells.last, last.row == row, last.col == col { continue }
            let value = self.cells[row * canvas.width + col]
            cells.append((row, col, Int(value & ~Self.mineFlag), value & Self.mineFlag != 0, n))
        }
        let marked = Set(cells.map { $0.row * canvas.width + $0.col })
        func hasNeighbour(_ cell: (row: Int, col: Int, count: Int, mine: Bool, n: Int)) -> Bool {
            let index = cell.row * canvas.width + cell.col
            return cell.col > 0 && marked.contains(index - 1) || cell.col + 1 < canvas.width && marked.contains(index + 1)
        }
        // Glyphs first: a number never covers a pin.
        for cell in cells {
            let glyph =
                cell.count > 1
                ? (hasNeighbour(cell) ? MapGlyphs.manyPins : MapGlyphs.cluster(cell.count)) : cell.mine ? MapGlyphs.mine : MapGlyphs.pin
            canvas.mark(row: cell.row, col: cell.col, glyph, style: Self.style(cell))
        }
        for cell in cells {
            let style = Self.style(cell)
            if cell.count == 1 {
                let digits = Array(String(cell.n).utf8)
                guard fits(digits.count, after: cell.col, row: cell.row, on: canvas) else { continue }
                for (offset, digit) in digits.enumerated() { canvas.mark(row: cell.row, col: cell.col + 1 + offset, digit, style: style) }
            } else if cell.count > 9, !cell.mine, !hasNeighbour(cell) {
                // A group holding your pin keeps one cell: without colour it reads "@", and "@4" would
                // read as your pin numbered 4.
                let digits = Array(String(cell.count).utf8)
                guard fits(digits.count - 1, after: cell.col, row: cell.row, on: canvas) else { continue }
                for (offset, digit) in digits.enumerated() { canvas.mark(row: cell.row, col: cell.col + offset, digit, style: style) }
            }
        }
    }

    private static func style(_ cell: (row: Int, col: Int, count: Int, mine: Bool, n: Int)) -> MapStyle {
        cell.mine ? .mine : cell.count > 1 ? .cluster : .pin
    }

    /// Whether `length` cells right of `col` are free, and the one after them too (or is the edge):
    /// digits run into nothing that would read as more digits.
    private func fits(_ length: Int, after col: Int, row: Int, on canvas: MapCanvas) -> Bool {
        guard col + length < canvas.width else { return false }
        for c in col + 1...min(col + length + 1, canvas.width - 1) where canvas.isTaken(row: row, col: c) { return false }
        return true
    }
}
