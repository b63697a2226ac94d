import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// What the full-screen map shows: the map, the picked pin, the status line at the bottom, and the
/// list of keys over the map while `?` has it open.
struct MapScreen {
    var colour = true
    var columns = 80
    var rows = 24
    private(set) var result: MapResult?
    /// The pins `n` and `p` step through: those in view when picking began (or the map was last moved
    /// by hand). Centring on a pick changes which pins are in view and their order; stepping through
    /// this list instead visits each once.
    private var pickOrder: [StudentPin] = []
    private var picked: Int?
    /// A message for the status line until the next key (drawings the daemon's news causes keep it:
    /// "refreshed: 100 students" would otherwise last until the refresh's own news came).
    var message: String?
    /// The place being typed after `/`.
    var typing: String?
    /// The list of keys over the map, while `?` has it open.
    var help: MapHelp?
    /// What holds for as long as it lasts, shown when no message is (the daemon gone, logged out
    /// elsewhere): the status line says it instead of the pick and the keys.
    var notice: String?
    /// How to start the daemon while it is away, over the bottom of the map.
    var startAdvice: StartAdvicePanel?

    /// Logged out elsewhere: the map and its pins are gone until a login (they are the students'
    /// data, for those logged in; the editors empty their lists too), and a note says what brings
    /// them back.
    private(set) var loggedOut = false

    var mapSize: (Int, Int) { (min(columns, 1000), min(rows - 1, 1000)) }
    var fits: Bool { columns >= 10 && rows - 1 >= 5 }
    /// A map was shown (hidden since, if logged out): a failure from here on is told in the status
    /// line rather than ending the command.
    var hasMap: Bool { result != nil || loggedOut }

    /// The picked pin, as the map in view shows it (a pick is always in view: one the map moved
    /// away from is dropped).
    var selectedPin: StudentPin? {
        guard let picked, let result else { return nil }
        return result.pins.first { $0.student.objectId == pickOrder[picked].student.objectId }
    }

    /// The picked student's pin, as picked.
    private var pickedPin: StudentPin? { picked.map { pickOrder[$0] } }

    mutating func measure() {
        if let size = Terminal.measuredSize(of: 1) ?? Terminal.measuredSize(of: 0) {
            columns = size.columns
            rows = size.rows
        }
    }

    /// Shows a new map; the pick stays while its pin is in view, and is dropped when the map moved
    /// away from it (`/ Springfield`, a pan): a pick nobody can see must not be what Enter opens.
    /// After the user moved the map, the pins `n` steps through are those now in view.
    mutating func show(_ result: MapResult) {
        self.result = result
        // Back after a logout: what the status line said then ("pick a pin first") is of no map here.
        if loggedOut { message = nil }
        loggedOut = false
        if let pin = pickedPin, !result.pins.contains(where: { $0.student.objectId == pin.student.objectId }) {
            dropPick()
        }
        if pickOrderIsStale, let pin = pickedPin {
            pickOrder = result.pins
            if !pickOrder.contains(where: { $0.student.objectId == pin.student.objectId }) { pickOrder.insert(pin, at: 0) }
            picked = pickOrder.firstIndex { $0.student.objectId == pin.student.objectId }
        }
        pickOrderIsStale = false
        paint()
    }

    /// Set when the user pans or zooms: the next drawing shows other pins to step through.
    var pickOrderIsStale = false

    /// Picks the next (1) or previous (-1) pin, from the pins in view when picking began; 0 drops the
    /// pick. The pin picked, to centre the map on.
    mutating func select(step: Int) -> StudentPin? {
        guard step != 0 else {
            dropPick()
            return nil
        }
        if picked == nil { pickOrder = result?.pins ?? [] }
        guard !pickOrder.isEmpty else {
            message = "no pins in view"
            return nil
        }
        picked = picked.map { ($0 + step + pickOrder.count) % pickOrder.count } ?? (step > 0 ? 0 : pickOrder.count - 1)
        return pickedPin
    }

    mutating func dropPick() {
        picked = nil
        pickOrder = []
    }

    /// Logged out elsewhere: the map goes, with its pins; the note (wrapped to the terminal, where
    /// the status line alone was cut at 60 columns) says what brings it back.
    mutating func showLoggedOut() {
        result = nil
        dropPick()
        loggedOut = true
        notice = "logged out (q quits)"
        startAdvice = StartAdvicePanel(advice: "Logged out: the map comes back with the next login, `onthemap login` in another terminal.")
        paint()
    }

    /// Picks the pin in a cell (a click), if there is one.
    mutating func select(row: Int, col: Int) -> Bool {
        guard let pins = result?.pins, let hit = pins.first(where: { $0.cell?.row == row && $0.cell?.col == col }) else {
            return false
        }
        pickOrder = pins
        picked = pickOrder.firstIndex { $0.student.objectId == hit.student.objectId }
        return true
    }

    func paint() {
        guard let result else {
            if loggedOut { RawTerminal.write("\u{1B}[H\u{1B}[2J" + (startAdvice?.overlay(columns: columns, rows: rows, colour: colour) ?? "")
                + (help?.overlay(columns: columns, rows: rows, colour: colour) ?? "") + statusLine) }
            return
        }
        let highlight = selectedPin?.cell.map { ($0.row, $0.col) }
        var frame = ""
        for (index, line) in MapPainter.paint(rows: result.rows, styles: result.styles, colour: colour, highlight: highlight).enumerated() {
            frame += "\u{1B}[\(index + 1);1H" + line
        }
        if let startAdvice { frame += startAdvice.overlay(columns: columns, rows: rows, colour: colour) }
        if let help { frame += help.overlay(columns: columns, rows: rows, colour: colour) }
        RawTerminal.write(frame + statusLine)
    }

    func paintStatus() {
        RawTerminal.write((startAdvice?.overlay(columns: columns, rows: rows, colour: colour) ?? "") + statusLine)
    }

    /// Says the terminal is too small, and the size the map needs, whole: the longest form whose
    /// lines fit the terminal (at 15×3 the one line it had was cut before the size).
    func paintTooSmall() {
        let forms = ["terminal too small for the map: it needs 10×6", "too small: needs 10×6", "needs 10×6", "10×6"]
        let lines = forms.lazy.compactMap { DisplayWidth.wrap($0, to: max(self.columns, 1)) }.first { $0.count <= max(self.rows, 1) }
            ?? [DisplayWidth.truncate("10×6", to: max(columns, 1))]
        RawTerminal.write("\u{1B}[H\u{1B}[2J" + lines.enumerated().map { "\u{1B}[\($0.offset + 1);1H" + $0.element }.joined())
    }

    private var zoom: Double { result?.view.zoom ?? 1 }

    /// The view's centre: the place named nearest it, else "48.1°N 11.6°E" to the tenth of a degree;
    /// "the whole world" at the world's zoom, whose centre is no place anyone looks at, or, where a
    /// short terminal cut it and left pins out, where ("the world cut at 71°N, 30°S": Sydney and Cape
    /// Town were outside it).
    private var centre: String {
        guard let result else { return "" }
        let view = result.view
        if view.zoom < 1.5 {
            guard result.outside > 0, let (north, south) = MapViewBand.cut(of: view) else { return "the whole world" }
            return "the world cut at \(north), \(south)"
        }
        if !view.place.isEmpty { return view.place }
        let camera = MapCamera(view: view)
        let latitude = WireJSON.format((abs(camera.latitude) * 10).rounded() / 10)
        let longitude = WireJSON.format((abs(camera.longitude) * 10).rounded() / 10)
        return "\(latitude)°\(camera.latitude < 0 ? "S" : "N") \(longitude)°\(camera.longitude < 0 ? "W" : "E")"
    }

    /// The keys the status line names, most needed first; as many as fit are shown, `?` lists all.
    static let statusKeys = ["q quit", "? keys", "+/- zoom", "arrows pan", "n/p pick", "Enter open", "/ place", "0 world"]

    /// The bottom line: what is being typed, a message, the picked pin, or where the map is and the keys.
    private var statusLine: String {
        let text: String
        if let typing {
            text = "place, continent, ocean or LAT,LON: " + typing + "▏  (Enter to go, Esc to cancel)"
        } else if let message {
            text = message
        } else if let notice {
            text = notice
        } else if let picked, let pin = pickedPin {
            let student = pin.student
            let name = DisplayText.clean(student.fullName) + (pin.mine ? " (you)" : "")
            text = "\(picked + 1)/\(pickOrder.count)  \(name) — \(DisplayText.clean(student.mapString)) — \(DisplayText.clean(student.mediaURL))"
        } else {
            let count = result?.pins.count ?? 0
            var counted = "\(CountText.grouped(count)) \(count == 1 ? "pin" : "pins")"
            if let outside = result?.outside, outside > 0 { counted += ", \(CountText.grouped(outside)) outside" }
            // A full cache: the server may have more students than the map draws.
            let newest = result?.limitedTo.map { "newest \(CountText.grouped($0)) only" } ?? ""
            var zoomed = "zoom \(WireJSON.format((zoom * 10).rounded() / 10))"
            if result?.view.isAtMaxZoom == true { zoomed += " (closest)" }
            var line = [counted, zoomed, centre, newest].filter { !$0.isEmpty }.joined(separator: " · ")
            var keys: [String] = []
            for key in Self.statusKeys {
                let candidate = line + " · " + (keys + [key]).joined(separator: "  ")
                guard DisplayWidth.of(candidate) <= columns else { break }
                keys.append(key)
            }
            if !keys.isEmpty { line += " · " + keys.joined(separator: "  ") }
            text = line
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
