import OnTheMapModels

/// Paints the daemon's `map` result for a terminal: colours by style code, and the legend.
enum MapPainter {
    /// The colour of each style code (SGR parameters); water stays plain.
    static let colours: [UInt8: String] = [
        UInt8(ascii: "l"): "32", UInt8(ascii: "b"): "33", UInt8(ascii: "p"): "1;31", UInt8(ascii: "c"): "1;31",
        UInt8(ascii: "m"): "1;36",
    ]

    /// The rows, coloured when `colour` is on; the cell `highlight` in reverse video (the selected pin).
    static func paint(rows: [String], styles: [String], colour: Bool, highlight: (row: Int, col: Int)? = nil) -> [String] {
        guard colour else { return zip(rows, styles).map { uncoloured(row: $0, styles: Array($1.utf8)) } }
        return zip(rows, styles).enumerated().map { index, pair in
            paint(row: pair.0, styles: Array(pair.1.utf8), highlightColumn: highlight?.row == index ? highlight?.col : nil)
        }
    }

    /// Without colour, the user's own pin is told by its glyph: "@", even where the daemon drew the
    /// count of pins sharing its cell (which colour shows in the pin's own colour).
    private static func uncoloured(row: String, styles: [UInt8]) -> String {
        guard styles.contains(mine) else { return row }
        var line = String.UnicodeScalarView()
        for (column, character) in row.unicodeScalars.enumerated() {
            line.append(column < styles.count && styles[column] == mine ? "@" : character)
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

    /// One line per pin: number, name (and "you"), place, link; cut to `width`.
    static func legend(_ pins: [WireJSON], width: Int?, style: Style) -> [String] {
        let rows = pins.map(StudentRow.init)
        let numberWidth = String(pins.count).count
        let nameWidth = min(rows.map { DisplayWidth.of(name($0)) }.max() ?? 0, 28)
        let placeWidth = min(rows.map { DisplayWidth.of($0.place) }.max() ?? 0, 30)
        return zip(pins, rows).map { pin, row in
            let number = String(pin["n"]?.intValue ?? 0)
            let prefix = String(repeating: " ", count: numberWidth - number.count)
            var rest = "  " + pad(name(row), nameWidth) + "  " + pad(row.place, placeWidth) + "  " + row.link
            if let width { rest = DisplayWidth.truncate(rest, to: max(width - numberWidth, 1)) }
            let mine = pin["mine"]?.boolValue == true
            return prefix + (style.enabled ? (mine ? "\u{1B}[1;36m\(number)\u{1B}[0m" : style.bold(number)) : number) + rest
        }
    }

    private static func name(_ row: StudentRow) -> String {
        let json = row.json
        return row.name + (json["mine"]?.boolValue == true ? " (you)" : "")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        let cut = DisplayWidth.truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
    }
}

extension WireJSON {
    /// The elements of an array; empty for anything else.
    var elements: [WireJSON] {
        if case .array(let elements) = self { return elements }
        return []
    }
}
