import OnTheMapModels
import OnTheMapRPC

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

    /// One line per pin: number, name (and "you"), place, link; cut to `width`, a cut link ending in
    /// "…". Names, places and links made safe to show (`DisplayText`).
    static func legend(_ pins: [StudentPin], width: Int?, style: Style) -> [String] {
        let numberWidth = String(pins.compactMap(\.cell?.n).max() ?? 0).count
        let nameWidth = min(pins.map { DisplayWidth.of(name($0)) }.max() ?? 0, 28)
        let placeWidth = min(pins.map { DisplayWidth.of(DisplayText.clean($0.student.mapString)) }.max() ?? 0, 30)
        return pins.map { pin in
            let number = String(pin.cell?.n ?? 0)
            let prefix = String(repeating: " ", count: numberWidth - number.count)
            var rest =
                "  " + pad(name(pin), nameWidth) + "  " + pad(DisplayText.clean(pin.student.mapString), placeWidth) + "  "
                + DisplayText.clean(pin.student.mediaURL)
            if let width { rest = DisplayWidth.truncate(rest, to: max(width - numberWidth, 1)) }
            return prefix + (style.enabled ? (pin.mine ? "\u{1B}[1;36m\(number)\u{1B}[0m" : style.bold(number)) : number) + rest
        }
    }

    private static func name(_ pin: StudentPin) -> String {
        DisplayText.clean(pin.student.fullName) + (pin.mine ? " (you)" : "")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        let cut = DisplayWidth.truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
    }
}
