import OnTheMapSupport

/// The list of keys `?` puts over the map: in a box in the middle. A description too long for the
/// box goes on over more lines, under the description column (as Neovim's `g?` list does), never cut;
/// when the terminal is too short to hold every line (at 60×12 the box shows seven lines of fifteen),
/// the list scrolls by lines, so every key can be read.
struct MapHelp {
    /// The first line of the list shown.
    private(set) var offset = 0

    /// The title, and what it says about scrolling when not every line fits.
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

    /// Moves by `step` lines, within the list.
    mutating func scroll(by step: Int, columns: Int, rows: Int) {
        offset = min(max(offset + step, 0), Self.lastOffset(columns: columns, rows: rows))
    }

    /// Whether the list does not fit a screen `columns`×`rows`, and so scrolls.
    static func scrolls(columns: Int, rows: Int) -> Bool {
        visibleLines(count: lines(columns: columns).count, rows: rows) < lines(columns: columns).count
    }

    private static func lastOffset(columns: Int, rows: Int) -> Int {
        let count = lines(columns: columns).count
        return max(count - visibleLines(count: count, rows: rows), 0)
    }

    /// The list's lines in a screen `columns` wide: each key, two spaces, then what it does, broken
    /// at spaces to fit the box, its further lines under the first one's description.
    static func lines(columns: Int) -> [String] {
        let keys = MapKey.keyList
        let keysWidth = keys.map { DisplayWidth.of($0.keys) }.max() ?? 0
        // The box's borders and a space either side of the text; a description gets at least 12.
        let descriptionWidth = max(columns - 4 - keysWidth - 2, 12)
        let indent = String(repeating: " ", count: keysWidth + 2)
        return keys.flatMap { key in
            let parts = DisplayWidth.fill(key.what.split(separator: " ").map(String.init), to: descriptionWidth)
            let first = key.keys + String(repeating: " ", count: keysWidth - DisplayWidth.of(key.keys)) + "  " + (parts.first ?? "")
            return [first] + parts.dropFirst().map { indent + $0 }
        }
    }

    /// How many of `count` lines the box shows in a screen of `rows` (the status line below it).
    static func visibleLines(count: Int, rows: Int) -> Int {
        // Two borders and the title; the blank line under the title only when everything fits.
        let room = rows - 1 - 3
        return room >= count + 1 ? count : max(room - 1, 1)
    }

    /// The box, as cursor moves and text, over a screen `columns`×`rows`.
    func overlay(columns: Int, rows: Int, colour: Bool) -> String {
        let list = Self.lines(columns: columns)
        let visible = Self.visibleLines(count: list.count, rows: rows)
        let scrolls = visible < list.count
        // Within the list after a resize.
        let first = min(offset, max(list.count - visible, 0))
        let shown = list[first..<min(first + visible, list.count)]
        var lines = [Self.title(scrolls: scrolls)]
        if !scrolls { lines.append("") }
        lines += shown
        if scrolls {
            let above = first
            let below = list.count - first - shown.count
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
