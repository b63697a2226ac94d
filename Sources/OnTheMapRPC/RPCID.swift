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

    /// As its JSON value (`wireJSON`), the one form of an id in a request and in a reply.
    public func encode(to encoder: any Encoder) throws {
        try wireJSON.encode(to: encoder)
    }

    /// The id as JSON.
    public var wireJSON: WireJSON {
        switch self {
        case .string(let text): .string(text)
        case .integer(let integer): .integer(integer)
        case .number(let number): .number(number)
        case .null: .null
        }
    }
}
