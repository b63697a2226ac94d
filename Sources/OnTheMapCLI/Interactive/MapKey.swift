/// A key of the full-screen map, decoded from the terminal's bytes.
enum MapKey: Equatable {
    case up, down, left, right
    case zoomIn, zoomOut
    case next, previous
    case enter, escape, backspace
    case search, refresh, world, quit, interrupt
    case character(Character)

    /// The keys in `bytes`, read as one chunk (a chunk holds whole escape sequences).
    static func decode(_ bytes: [UInt8]) -> [MapKey] {
        var keys: [MapKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x1B {
                // ESC [ A…D, ESC O A…D (application mode), ESC [ Z (shift-tab); a lone ESC is Escape.
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
        case "+", "=": return .zoomIn
        case "-", "_": return .zoomOut
        case "n": return .next
        case "p": return .previous
        case "/": return .search
        case "r": return .refresh
        case "0", "w": return .world
        case "q", "Q": return .quit
        default: return self
        }
    }
}
