import OnTheMapModels

/// JSON for tests, through `WireCoding` as the programs write and read it.
public enum JSONText {
    /// `value` as JSON text.
    public static func of(_ value: some Encodable) throws -> String {
        String(decoding: try WireCoding.encode(value), as: UTF8.self)
    }

    /// `text` read as any JSON value.
    public static func parse(_ text: some StringProtocol) throws -> WireJSON {
        try WireCoding.decode(WireJSON.self, from: Array(text.utf8))
    }

    /// `bytes` read as any JSON value.
    public static func parse(_ bytes: some Collection<UInt8>) throws -> WireJSON {
        try WireCoding.decode(WireJSON.self, from: bytes)
    }

    /// `value` written and read back as `T`.
    public static func roundTrip<T: Codable>(_ value: T) throws -> T {
        try WireCoding.decode(T.self, from: WireCoding.encode(value))
    }
}

extension Decodable {
    /// A value read strictly from a JSON value already parsed (`DaemonTestBed.result`), as a client
    /// reads it from the line.
    public init(json: WireJSON) throws {
        self = try WireCoding.decode(Self.self, from: WireCoding.encode(json))
    }
}
