import FoundationEssentials
import OnTheMapModels

/// The default `students` output: numbered, aligned columns that fit the terminal.
enum StudentTable {
    static func render(_ rows: [StudentPin], width: Int?, now: Date, style: Style) -> String {
        // Rows from a `--near` query carry their distance: shown after the place.
        let showsDistance = rows.contains { $0.distanceKm != nil }
        var headers = ["#", "NAME", "PLACE", "LINK", "UPDATED"]
        var minimums = [1, 8, 8, 12, 7]
        if showsDistance {
            headers.insert("KM", at: 3)
            minimums.insert(2, at: 3)
        }
        let link = headers.firstIndex(of: "LINK")!
        var cells = rows.enumerated().map { index, row in
            let student = row.student
            // "(you)" is the table's own word, added after the name is made safe (and kept when the
            // name is cut to fit).
            var cells = [
                String(index + 1), DisplayText.clean(student.fullName), DisplayText.clean(student.mapString),
                DisplayText.clean(student.mediaURL), student.updatedAt.map { RelativeTime.describe($0, now: now) } ?? "",
            ]
            if showsDistance { cells.insert(row.distanceKm.map(Self.kilometres) ?? "", at: 3) }
            return cells
        }
        let you = " (you)"
        let mine = Set(rows.indices.filter { rows[$0].mine })
        for index in mine { cells[index][1] += you }
        var widths = headers.indices.map { column in
            max(headers[column].count, cells.map { DisplayWidth.of($0[column]) }.max() ?? 0)
        }
        if let width {
            // Shrink the widest shrinkable column (link, then place, then name) until the row fits.
            let total = { widths.reduce(0, +) + 2 * (widths.count - 1) }
            while total() > width {
                guard let column = [link, 2, 1].max(by: { widths[$0] - minimums[$0] < widths[$1] - minimums[$1] }),
                    widths[column] > minimums[column]
                else { break }
                widths[column] -= 1
            }
            cells = cells.enumerated().map { index, row in
                row.enumerated().map { column, cell in
                    guard column == 1, mine.contains(index) else { return DisplayWidth.truncate(cell, to: widths[column]) }
                    return DisplayWidth.truncate(String(cell.dropLast(you.count)), to: max(1, widths[column] - you.count)) + you
                }
            }
        }
        let rightAligned: Set<Int> = showsDistance ? [0, 3] : [0]
        var lines = [format(headers, widths: widths, rightAligned: rightAligned, style: style, header: true)]
        lines += cells.map { format($0, widths: widths, rightAligned: rightAligned, style: style, header: false) }
        return lines.joined(separator: "\n")
    }

    /// "0.8", "12", "1,234": a decimal only below 10 km.
    static func kilometres(_ distance: Double) -> String {
        if distance < 10 { return String((distance * 10).rounded() / 10) }
        let whole = Int(distance.rounded())
        var digits = String(whole)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped
    }

    private static func format(_ cells: [String], widths: [Int], rightAligned: Set<Int>, style: Style, header: Bool) -> String {
        var line = ""
        for (column, cell) in cells.enumerated() {
            let padding = String(repeating: " ", count: max(0, widths[column] - DisplayWidth.of(cell)))
            let padded = rightAligned.contains(column) ? padding + cell : cell + padding
            line += (column == 0 ? "" : "  ") + (header ? style.bold(padded) : padded)
        }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}
