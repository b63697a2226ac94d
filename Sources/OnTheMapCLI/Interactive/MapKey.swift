/// A key of the full-screen map, decoded from the terminal's bytes.
enum MapKey: Equatable {
    case up, down, left, right
    case zoomIn, zoomOut
    case next, previous
    case enter, escape, backspace
    case search, refresh, world, help, quit, interrupt
    case character(Character)
    /// The mouse, as terminals report it in SGR mode (1006): cells are 0-based here.
    case mouse(MapMouse)

    /// The keys in `bytes`, read as one chunk (a chunk holds whole escape sequences).
    static func decode(_ bytes: [UInt8]) -> [MapKey] {
        var keys: [MapKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x1B {
                // ESC [ < b ; x ; y M|m (SGR mouse), ESC [ A…D, ESC O A…D (application mode), ESC [ Z
                // (shift-tab); a lone ESC is Escape.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "["), bytes[index + 1] == UInt8(ascii: "<") {
                    index += 2
                    let start = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: "M"), bytes[index] != UInt8(ascii: "m") { index += 1 }
                    guard index < bytes.count else { break }
                    let fields = String(decoding: bytes[start..<index], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
                    let released = bytes[index] == UInt8(ascii: "m")
                    index += 1
                    if fields.count == 3, let mouse = MapMouse(button: fields[0], col: fields[1] - 1, row: fields[2] - 1, released: released) {
                        keys.append(.mouse(mouse))
                    }
                    continue
                }
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") {
                    let final = bytes[index + 1]
                    index += 2
                    switch final {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    case UInt8(ascii: "C"): keys.append(.right)
                    case UInt8(ascii: "D"): keys.append(.left)
                    case UInt8(ascii: "Z"): keys.append(.previous)
                    default:
                        // Skip the rest of an unknown sequence (parameters, then a letter or ~).
                        while index < bytes.count, !(0x40...0x7E).contains(bytes[index - 1]) { index += 1 }
                    }
                } else {
                    keys.append(.escape)
                }
                continue
            }
            switch byte {
            case 0x03: keys.append(.interrupt)
            case 0x09: keys.append(.next)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            default:
                // Printable text (UTF-8 sequences kept whole).
                var end = index
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                let text = String(decoding: bytes[(index - 1)..<end], as: UTF8.self)
                index = end
                keys.append(contentsOf: text.map(MapKey.character))
            }
        }
        return keys
    }

    /// What a typed character means on the map (not while typing a place).
    var command: MapKey {
        guard case .character(let character) = self else { return self }
        switch character {
        case "k": return .up
        case "j": return .down
        case "h": return .left
        case "l": return .right
        // a and z zoom as in mapscii.
        case "+", "=", "a": return .zoomIn
        case "-", "_", "z": return .zoomOut
        case "n": return .next
        case "p": return .previous
        case "/": return .search
        case "r": return .refresh
        case "0", "w": return .world
        case "?": return .help
        case "q", "Q": return .quit
        default: return self
        }
    }

    /// Every key, as the `?` overlay lists them.
    static let keyList: [(keys: String, what: String)] = [
        ("arrows, h j k l", "pan a quarter of the view"),
        ("drag (mouse)", "pan"),
        ("+ -, a z", "zoom in, out"),
        ("wheel (mouse)", "zoom in, out where the pointer is"),
        ("0, w", "the whole world"),
        ("n, p, Tab", "pick the next, previous pin, and centre it"),
        ("click (mouse)", "pick the pin clicked"),
        ("Enter", "open the picked pin's link"),
        ("Esc", "drop the pick"),
        ("/", "go to a place, continent, ocean or LAT,LON"),
        ("r", "refresh the students"),
        ("?", "this list (any key closes it)"),
        ("q, Ctrl-C", "quit"),
    ]
}

/// A mouse event in SGR mode: a wheel turn, or the left button pressed, dragged or released.
enum MapMouse: Equatable {
    case wheelUp(row: Int, col: Int)
    case wheelDown(row: Int, col: Int)
    case press(row: Int, col: Int)
    case drag(row: Int, col: Int)
    case release(row: Int, col: Int)

    /// From the button code (with modifier bits: 4 shift, 8 meta, 16 control; 32 motion; 64 wheel).
    init?(button: Int, col: Int, row: Int, released: Bool) {
        let base = button & ~(4 | 8 | 16)
        switch (base, released) {
        case (64, _): self = .wheelUp(row: row, col: col)
        case (65, _): self = .wheelDown(row: row, col: col)
        case (0, false): self = .press(row: row, col: col)
        case (32, false): self = .drag(row: row, col: col)
        case (0, true): self = .release(row: row, col: col)
        default: return nil
        }
    }
}
