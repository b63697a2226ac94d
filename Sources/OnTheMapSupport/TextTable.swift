/// Columns fitted to a terminal's width: the one rule every table the CLI prints follows (`students`,
/// `students --near`, the list of students a name in `open` matches, the map's legend), and the
/// server's admin tables (`user list`, `pin list`, `session list`).
///
/// With a width every line fits it, down to `narrowest` columns (below that, lines are laid out for
/// it): first the cuttable columns are cut, the one with most to spare first, down to their
/// `minimum` (a cell's own text; its kept words come on top); if that is not enough, whole columns are left out (`dropOrder`, lowest first) and the
/// rest fitted again; then cuttable columns are cut further, to one character and "…"; and last,
/// the columns are one space apart instead of two (a `--near` list of 100 rows at 20 columns, your
/// row "A… (you)" and a distance of "12,345"). A cell
/// that is not cuttable (a number, a time) is shown whole or not at all. A cell's `kept` suffix
/// ("(you)") stays whole when the cell is cut: `A… (you)`. Without a width (not a terminal) nothing
/// is cut but to a column's `maximum`.
public struct TextTable {
    /// One column: its header, its cells (one per row) and how it may give way.
    public struct Column {
        public var header: String
        public var cells: [String]
        /// Words after a cell kept whole when it is cut (nil: none), one per row.
        public var kept: [String?] = []
        public var rightAligned = false
        /// The narrowest a cut makes a cell's own text before columns are left out, its kept words
        /// not counted (8: "Ada Lov…", and "Ada Lov… (you)" on your row); nil: never cut.
        public var minimum: Int?
        /// The widest it is, even with room to spare (nil: as wide as its widest cell).
        public var maximum: Int?
        /// When it is left out for room, lowest first; nil: always shown.
        public var dropOrder: Int?

        public init(
            header: String, cells: [String], kept: [String?] = [], rightAligned: Bool = false, minimum: Int? = nil,
            maximum: Int? = nil, dropOrder: Int? = nil
        ) {
            self.header = header
            self.cells = cells
            self.kept = kept
            self.rightAligned = rightAligned
            self.minimum = minimum
            self.maximum = maximum
            self.dropOrder = dropOrder
        }
    }

    /// The narrowest width a table is fitted to.
    public static let narrowest = 20
    /// The two spaces between columns.
    public static let gap = 2

    public var columns: [Column]
    /// Whether the first line is the headers.
    public var showsHeader = true

    public init(columns: [Column], showsHeader: Bool = true) {
        self.columns = columns
        self.showsHeader = showsHeader
    }

    /// The lines, each cell padded to its column and no line ending in spaces. `paint` styles a cut,
    /// padded cell: row nil for the header, column as given in `columns` (whichever are left out).
    public func lines(width: Int?, paint: (_ row: Int?, _ column: Int, _ text: String) -> String = { $2 }) -> [String] {
        let (shown, widths, gap) = layout(width: width.map { max($0, Self.narrowest) })
        let rows = columns.first?.cells.count ?? 0
        var lines: [String] = []
        for row in (showsHeader ? [nil] : []) + (0..<rows).map(Optional.some) {
            var line = ""
            for (position, column) in shown.enumerated() {
                let text = row.map { cell(column, $0, width: widths[column]) } ?? columns[column].header
                let padding = String(repeating: " ", count: max(0, widths[column] - DisplayWidth.of(text)))
                let last = position == shown.count - 1
                let padded = columns[column].rightAligned ? padding + text : last ? text : text + padding
                line += (position == 0 ? "" : String(repeating: " ", count: gap)) + paint(row, column, padded)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
        }
        return lines
    }

    /// The columns shown (indices into `columns`), every column's width, and the spaces between columns.
    public func layout(width: Int?) -> (shown: [Int], widths: [Int], gap: Int) {
        var shown = Array(columns.indices)
        guard let width else { return (shown, columns.indices.map(natural), Self.gap) }
        while true {
            var widths = columns.indices.map(natural)
            let cuttable = shown.filter { columns[$0].minimum != nil }
            Self.shrink(&widths, shown, cuttable, to: { columns[$0].minimum! + widestSuffix($0) }, fit: width)
            if Self.total(widths, shown) <= width { return (shown, widths, Self.gap) }
            let droppable = shown.filter { columns[$0].dropOrder != nil }
            if let drop = droppable.min(by: { columns[$0].dropOrder! < columns[$1].dropOrder! }) {
                shown.removeAll { $0 == drop }
                continue
            }
            Self.shrink(&widths, shown, cuttable, to: floor, fit: width)
            return (shown, widths, Self.total(widths, shown) <= width ? Self.gap : 1)
        }
    }

    private static func total(_ widths: [Int], _ shown: [Int]) -> Int {
        shown.reduce(gap * (shown.count - 1)) { $0 + widths[$1] }
    }

    /// Takes a column at a time from the one furthest above its least, until the shown columns fit `width`.
    private static func shrink(
        _ widths: inout [Int], _ shown: [Int], _ candidates: [Int], to least: (Int) -> Int, fit width: Int
    ) {
        // On a tie the column further right gives way (a link before a name).
        let candidates = Array(candidates.reversed())
        var over = total(widths, shown) - width
        while over > 0 {
            let slack = candidates.map { widths[$0] - least($0) }
            guard let most = slack.indices.max(by: { slack[$0] < slack[$1] }), slack[most] > 0 else { return }
            let column = candidates[most]
            widths[column] -= 1
            over -= 1
        }
    }

    /// As wide as the widest cell (with its kept words) or the header shown, up to the maximum.
    private func natural(_ column: Int) -> Int {
        let spec = columns[column]
        let cells = spec.cells.indices.map { DisplayWidth.of(spec.cells[$0] + suffix(column, $0)) }
        let widest = max(showsHeader ? DisplayWidth.of(spec.header) : 0, cells.max() ?? 0)
        return min(widest, spec.maximum ?? widest)
    }

    /// One character and "…", and the kept words whole.
    private func floor(_ column: Int) -> Int {
        2 + widestSuffix(column)
    }

    /// The widest of a column's kept words, with the space before them (0: none).
    private func widestSuffix(_ column: Int) -> Int {
        columns[column].cells.indices.map { DisplayWidth.of(suffix(column, $0)) }.max() ?? 0
    }

    private func suffix(_ column: Int, _ row: Int) -> String {
        let kept = columns[column].kept
        return row < kept.count ? kept[row].map { " " + $0 } ?? "" : ""
    }

    /// The cell cut to `width`, its kept words whole after the cut.
    private func cell(_ column: Int, _ row: Int, width: Int) -> String {
        let text = columns[column].cells[row]
        let kept = suffix(column, row)
        guard DisplayWidth.of(text + kept) > width else { return text + kept }
        return DisplayWidth.truncate(text, to: max(1, width - DisplayWidth.of(kept))) + kept
    }
}
