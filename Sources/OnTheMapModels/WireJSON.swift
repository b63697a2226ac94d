/// A JSON value whose objects keep their keys in the order given.
///
/// The API's bytes have a fixed key order (`{"status":403,"error":…}`, `{"registered":true,"key":…}`)
/// that is neither alphabetical nor anything `JSONEncoder` promises: on Linux it writes unsorted keys
/// in hash order, which changes from run to run. So the server writes those bodies through this, and
/// a client its request lines (`RPCRequest.line`: params are a value of this already, and a process
/// that sends one request is spared `JSONEncoder`'s first-use set-up).
///
/// Not `indirect`: the arrays already hold nested values out of line, and `indirect` boxed every
/// value on the heap, strings and numbers included (one allocation per value).
public enum WireJSON: Sendable, Hashable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
    case array([WireJSON])
    case object([(String, WireJSON)])

    /// JSON equality: objects compare by members whatever their order; integral numbers equal
    /// their `.number` form.
    public static func == (lhs: WireJSON, rhs: WireJSON) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): return Double(a) == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            let left = Dictionary(a, uniquingKeysWith: { $1 })
            let right = Dictionary(b, uniquingKeysWith: { $1 })
            return left == right
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let text): hasher.combine(text)
        case .bool(let flag): hasher.combine(flag)
        case .null: hasher.combine(0)
        case .integer(let integer): hasher.combine(Double(integer))
        case .number(let number): hasher.combine(number)
        case .array(let elements): hasher.combine(elements)
        case .object(let members):
            let unique = Dictionary(members, uniquingKeysWith: { $1 })
            for key in unique.keys.sorted() {
                hasher.combine(key)
                hasher.combine(unique[key])
            }
        }
    }

    /// Compact JSON text: no spaces, `/` not escaped, non-ASCII written as UTF-8.
    public var serialized: String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text as UTF-8.
    public func write(into output: inout [UInt8]) {
        switch self {
        case .string(let text): Self.writeString(text, into: &output)
        case .number(let value): output += Self.format(value).utf8
        case .integer(let value): output += String(value).utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .null: output += "null".utf8
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A finite number as `JSONEncoder` writes it: shortest round-trip digits, integral values without
    /// `.0` (also how messages and tables show a number a person typed: "0.1", "20100"). JSON has no
    /// infinity or NaN: those are `null`.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Appends `text` as a JSON string: quoted, `"` and `\\` escaped, and the C0 controls (the
    /// usual ones by letter, the rest as `\\u00XX`); everything else as its UTF-8.
    public static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case UInt8(ascii: "\n"): output += #"\n"#.utf8
            case UInt8(ascii: "\r"): output += #"\r"#.utf8
            case UInt8(ascii: "\t"): output += #"\t"#.utf8
            case 0x08: output += #"\b"#.utf8
            case 0x0C: output += #"\f"#.utf8
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// A value with a fixed wire form.
public protocol WireJSONRepresentable {
    /// The value as the API writes it.
    var wireJSON: WireJSON { get }
}
