import OnTheMapModels

/// What the full-screen map shows: the map, the selected pin, and the status line at the bottom.
struct MapScreen {
    var colour = true
    var columns = 80
    var rows = 24
    private(set) var result: WireJSON?
    private var pins: [WireJSON] = []
    private var selected: Int?
    /// A message for the status line until the next key (drawings the daemon's news causes keep it:
    /// "refreshed: 100 students" would otherwise last until the refresh's own news came).
    var message: String?
    /// The place being typed after `/`.
    var typing: String?

    var mapSize: (Int, Int) { (min(columns, 1000), min(rows - 1, 1000)) }
    var fits: Bool { columns >= 10 && rows - 1 >= 5 }
    var hasMap: Bool { result != nil }

    var selectedPin: WireJSON? { selected.map { pins[$0] } }

    mutating func measure() {
        if let size = Terminal.size(of: 1, environmentFirst: false) ?? Terminal.size(of: 0, environmentFirst: false) {
            columns = size.columns
            rows = size.rows
        }
    }

    /// Shows a new map, keeping the selected pin when it is still in view.
    mutating func show(_ result: WireJSON) {
        let previous = selectedPin?["objectId"]
        self.result = result
        pins = result["pins"]?.elements ?? []
        selected = previous.flatMap { id in pins.firstIndex { $0["objectId"] == id } }
        paint()
    }

    /// Selects the next (1) or previous (-1) pin in view; 0 deselects.
    mutating func select(step: Int) {
        guard step != 0 else {
            selected = nil
            return
        }
        guard !pins.isEmpty else {
            message = "no pins in view"
            return
        }
        selected = selected.map { ($0 + step + pins.count) % pins.count } ?? (step > 0 ? 0 : pins.count - 1)
    }

    func paint() {
        guard let result else { return }
        let rowsText = (result["rows"]?.elements ?? []).compactMap(\.stringValue)
        let styles = (result["styles"]?.elements ?? []).compactMap(\.stringValue)
        let highlight = selectedPin.flatMap { pin in pin["row"]?.intValue.flatMap { row in pin["col"]?.intValue.map { (row, $0) } } }
        var frame = ""
        for (index, line) in MapPainter.paint(rows: rowsText, styles: styles, colour: colour, highlight: highlight).enumerated() {
            frame += "\u{1B}[\(index + 1);1H" + line
        }
        RawTerminal.write(frame + statusLine)
    }

    func paintStatus() {
        RawTerminal.write(statusLine)
    }

    func paintTooSmall() {
        let text = DisplayWidth.truncate("terminal too small for the map (needs 10×6)", to: max(columns, 1))
        RawTerminal.write("\u{1B}[H\u{1B}[2J" + text)
    }

    private var zoom: Double { result?["view"]?["zoom"]?.doubleValue ?? 1 }

    /// The view's centre, "48.1°N 11.6°E", to the tenth of a degree.
    private var centre: String {
        guard let camera = MapCamera(view: result?["view"]) else { return "" }
        let latitude = WireJSON.format((abs(camera.latitude) * 10).rounded() / 10)
        let longitude = WireJSON.format((abs(camera.longitude) * 10).rounded() / 10)
        return "\(latitude)°\(camera.latitude < 0 ? "S" : "N") \(longitude)°\(camera.longitude < 0 ? "W" : "E")"
    }

    /// The bottom line: what is being typed, a message, the selected pin, or the keys.
    private var statusLine: String {
        let text: String
        if let typing {
            text = "place: " + typing + "▏  (Enter to go, Esc to cancel)"
        } else if let message {
            text = message
        } else if let index = selected {
            let row = StudentRow(json: pins[index])
            text = "\(index + 1)/\(pins.count)  \(row.name)\(pins[index]["mine"]?.boolValue == true ? " (you)" : "") — \(row.place) — \(row.link)"
        } else {
            // The keys by how much they are needed: a narrow terminal cuts the end of the line.
            let counted = "\(pins.count) \(pins.count == 1 ? "pin" : "pins")"
            let zoomed = "zoom \(WireJSON.format((zoom * 10).rounded() / 10))"
            let keys = "q quit  arrows/hjkl pan  +/- zoom  n/p pick  Enter open  / place  r refresh"
            text = "\(counted) · \(zoomed) · \(centre) · \(keys)"
        }
        let line = DisplayWidth.truncate(text.replacingControlCharacters(), to: columns)
        let styled = colour ? "\u{1B}[7m" + line + String(repeating: " ", count: max(0, columns - DisplayWidth.of(line))) + "\u{1B}[0m" : line
        return "\u{1B}[\(rows);1H\u{1B}[2K" + styled
    }
}

extension String {
    /// Control characters from data (a name, a link) shown as spaces, so they cannot move the cursor.
    func replacingControlCharacters() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}
