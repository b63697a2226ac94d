import OnTheMapModels

/// A request id, echoed exactly in the response: a string, an integer, another number, or null.
public enum RPCID: Sendable, Hashable, Codable {
    case string(String)
    case integer(Int)
    case number(Double)
    case null

    /// Integers first, the ids clients send: each type tried and missed throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "id must be a string, a number or null")
        }
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
