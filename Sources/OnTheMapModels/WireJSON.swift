/// A JSON value whose objects keep their keys in the order given.
///
/// The API's bytes have a fixed key order (`{"status":403,"error":…}`, `{"registered":true,"key":…}`)
/// that is neither alphabetical nor anything `JSONEncoder` promises: on Linux it writes unsorted keys
/// in hash order, which changes from run to run. So the server writes its bodies through this.
public indirect enum WireJSON: Sendable, Hashable {
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
        var output = ""
        write(to: &output)
        return output
    }

    /// Appends the compact JSON text to `output`.
    public func write(to output: inout String) {
        switch self {
        case .string(let text): Self.writeString(text, to: &output)
        case .number(let value): output += Self.format(value)
        case .integer(let value): output += String(value)
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Numbers as `JSONEncoder` writes them: shortest round-trip digits, integral values without `.0`.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// A value with a fixed wire form.
public protocol WireJSONRepresentable {
    /// The value as the API writes it.
    var wireJSON: WireJSON { get }
}
