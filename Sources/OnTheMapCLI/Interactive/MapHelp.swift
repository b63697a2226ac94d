/// The list of keys `?` puts over the map: in a box in the middle, scrolled when the terminal is too
/// short to hold it all (at 60×12 a box shows seven keys of thirteen), so every key can be read.
struct MapHelp {
    /// The first key shown.
    private(set) var offset = 0

    /// The title, and what it says about scrolling when not every key fits.
    private static func title(scrolls: Bool) -> String {
        scrolls ? "Keys (j/k or arrows scroll, any other key closes)" : "Keys (any key closes this)"
    }

    /// Keys that scroll the list (while it does not fit) instead of closing it.
    static func scrollStep(for key: MapKey) -> Int? {
        switch key.command {
        case .down: 1
        case .up: -1
        case .character(" "): 5
        default: nil
        }
    }

    /// Moves by `step` keys, within the list.
    mutating func scroll(by step: Int, rows: Int) {
        let last = max(MapKey.keyList.count - Self.visibleKeys(rows: rows), 0)
        offset = min(max(offset + step, 0), last)
    }

    /// How many keys the box shows in a screen of `rows` (the status line below it).
    static func visibleKeys(rows: Int) -> Int {
        // Two borders and the title; the blank line under the title only when everything fits.
        let room = rows - 1 - 3
        return room >= MapKey.keyList.count + 1 ? MapKey.keyList.count : max(room - 1, 1)
    }

    /// The box, as cursor moves and text, over a screen `columns`×`rows`.
    func overlay(columns: Int, rows: Int, colour: Bool) -> String {
        let keys = MapKey.keyList
        let visible = Self.visibleKeys(rows: rows)
        let scrolls = visible < keys.count
        let keysWidth = keys.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let shown = keys[min(offset, keys.count)..<min(offset + visible, keys.count)]
        var lines = [Self.title(scrolls: scrolls)]
        if !scrolls { lines.append("") }
        lines += shown.map { $0.keys + String(repeating: " ", count: keysWidth - DisplayWidth.of($0.keys)) + "  " + $0.what }
        if scrolls {
            let above = offset
            let below = keys.count - offset - shown.count
            lines.append(
                [above > 0 ? "↑ \(above) more" : "", below > 0 ? "↓ \(below) more" : ""].filter { !$0.isEmpty }.joined(separator: ", "))
        }
        let inner = min((lines.map(DisplayWidth.of).max() ?? 0) + 2, max(columns - 2, 1))
        let height = min(lines.count + 2, rows - 1)
        let top = max((rows - 1 - height) / 2, 0)
        let left = max((columns - inner - 2) / 2, 0)
        var text = ""
        let border = "+" + String(repeating: "-", count: inner) + "+"
        for index in 0..<height {
            let line: String
            if index == 0 || index == height - 1 {
                line = border
            } else {
                let content = DisplayWidth.truncate(" " + lines[index - 1], to: inner)
                line = "|" + content + String(repeating: " ", count: inner - DisplayWidth.of(content)) + "|"
            }
            text += "\u{1B}[\(top + index + 1);\(left + 1)H" + (colour ? "\u{1B}[0;1m" + line + "\u{1B}[0m" : line)
        }
        return text
    }
}
