import OnTheMapModels

/// A request id, echoed exactly in the response: a string, an integer, another number, or null.
public enum RPCID: Sendable, Hashable, Codable {
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

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let id = RPCID(try container.decode(WireJSON.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "id must be a string, a number or null")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .null: try container.encodeNil()
        }
    }
}
