import OnTheMapModels

/// Which pins fall in which cells.
public struct PinLayout: Sendable {
    /// Pins in view, numbered row by row, left to right; within a cell in the order given.
    public private(set) var placements: [PinPlacement] = []
    /// Per cell (`row * width + col`): how many pins, with `mineFlag` set when one is the user's.
    private(set) var cells: [UInt32]

    static let mineFlag: UInt32 = 1 << 31

    public init(pins: [MapPoint], view: MapView) {
        cells = [UInt32](repeating: 0, count: view.width * view.height)
        var found: [(cell: Int, order: Int, row: Int, col: Int)] = []
        found.reserveCapacity(pins.count)
        for order in pins.indices {
            guard let (row, col) = view.cell(latitude: pins[order].latitude, longitude: pins[order].longitude) else { continue }
            let cell = row * view.width + col
            found.append((cell, order, row, col))
            cells[cell] += 1
            if pins[order].mine { cells[cell] |= Self.mineFlag }
        }
        found.sort { ($0.cell, $0.order) < ($1.cell, $1.order) }
        placements = found.enumerated().map { index, entry in
            PinPlacement(index: entry.order, cell: MapCell(n: index + 1, row: entry.row, col: entry.col))
        }
    }
}
