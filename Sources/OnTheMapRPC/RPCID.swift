import OnTheMapModels

/// A request id, echoed exactly in the response: a string, an integer, another number, or null.
public enum RPCID: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case number(Double)
    case null

    /// The id of a JSON value, or nil if the value cannot be an id (objects, arrays, booleans).
    init?(_ value: WireJSON) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let integer): self = .integer(integer)
        case .number(let number): self = .number(number)
        case .null: self = .null
        default: return nil
        }
    }

    var wireJSON: WireJSON {
        switch self {
        case .string(let text): .string(text)
        case .integer(let integer): .integer(integer)
        case .number(let number): .number(number)
        case .null: .null
        }
    }
}
