import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// Paints the daemon's `map` result for a terminal: colours by style code, and the legend.
enum MapPainter {
    /// The colour of each style code (SGR parameters); water stays plain, names are dim.
    static let colours: [UInt8: String] = [
        UInt8(ascii: "l"): "32", UInt8(ascii: "b"): "33", UInt8(ascii: "p"): "1;31", UInt8(ascii: "c"): "1;31",
        UInt8(ascii: "m"): "1;36", UInt8(ascii: "n"): "2",
    ]

    /// The rows, coloured when `colour` is on; the cell `highlight` in reverse video (the selected pin).
    static func paint(rows: [String], styles: [String], colour: Bool, highlight: (row: Int, col: Int)? = nil) -> [String] {
        guard colour else { return zip(rows, styles).map { uncoloured(row: $0, styles: Array($1.utf8)) } }
        return zip(rows, styles).enumerated().map { index, pair in
            paint(row: pair.0, styles: Array(pair.1.utf8), highlightColumn: highlight?.row == index ? highlight?.col : nil)
        }
    }

    /// Without colour, the user's own pin is told by its glyph: "@", even where the daemon drew the
    /// count of pins sharing its cell (which colour shows in the pin's own colour). Only the first
    /// cell of your pin's style: the digits of its number after it stay digits.
    private static func uncoloured(row: String, styles: [UInt8]) -> String {
        guard styles.contains(mine) else { return row }
        var line = String.UnicodeScalarView()
        for (column, character) in row.unicodeScalars.enumerated() {
            let isMine = column < styles.count && styles[column] == mine
            let follows = column > 0 && column - 1 < styles.count && styles[column - 1] == mine
            line.append(isMine && !follows ? "@" : character)
        }
        return String(line)
    }

    private static let mine = UInt8(ascii: "m")

    private static func paint(row: String, styles: [UInt8], highlightColumn: Int?) -> String {
        var line = ""
        var current: String?
        for (column, character) in row.unicodeScalars.enumerated() {
            var wanted = column < styles.count ? colours[styles[column]] : nil
            if column == highlightColumn { wanted = (wanted.map { $0 + ";" } ?? "") + "7" }
            if wanted != current {
                line += "\u{1B}[0m" + (wanted.map { "\u{1B}[\($0)m" } ?? "")
                current = wanted
            }
            line.unicodeScalars.append(character)
        }
        return current == nil ? line : line + "\u{1B}[0m"
    }

    /// One line per pin: number, name (and "(you)"), place, link, fitted to `width` by the tables'
    /// rule (`TextTable`, no header): the link cut first, the place and name after, then the link
    /// and the place left out. Names, places and links made safe to show (`DisplayText`).
    static func legend(_ pins: [StudentPin], width: Int?, style: Style) -> [String] {
        let students = pins.map(\.student)
        let table = TextTable(
            columns: [
                TextTable.Column(header: "#", cells: pins.map { String($0.cell?.n ?? 0) }, rightAligned: true),
                TextTable.Column(
                    header: "NAME", cells: students.map { DisplayText.clean($0.fullName) },
                    kept: pins.map { $0.mine ? "(you)" : nil }, minimum: 6, maximum: 28),
                TextTable.Column(
                    header: "PLACE", cells: students.map { DisplayText.clean($0.mapString) }, minimum: 8, maximum: 30,
                    dropOrder: 1),
                TextTable.Column(
                    header: "LINK", cells: students.map { DisplayText.clean($0.mediaURL) }, minimum: 20, dropOrder: 0),
            ],
            showsHeader: false)
        return table.lines(width: width) { row, column, text in
            guard let row, column == 0, style.enabled else { return text }
            let number = text.trimmingPrefix(" ")
            let padding = String(repeating: " ", count: text.count - number.count)
            return padding + (pins[row].mine ? "\u{1B}[1;36m\(number)\u{1B}[0m" : style.bold(String(number)))
        }
    }
}
