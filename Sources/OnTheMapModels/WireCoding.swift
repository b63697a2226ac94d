import FoundationEssentials

/// The one way typed values become JSON and back: every program's `JSONEncoder` and `JSONDecoder`
/// come from here, so a value reads back as it was written everywhere (the daemon's answers and the
/// clients' reading of them, the API's bodies, the files the daemon keeps). Untyped values
/// (`WireJSON`: params, the request lines clients send, bodies of a fixed key order) have their
/// own small writer.
///
/// Keys are sorted (a stable order for people, diffs and golden files; also Parse's order for a
/// student location), `/` is not escaped, and dates are the API's timestamps to the millisecond
/// (`2015-02-25T01:10:38.103Z`).
public enum WireCoding {
    /// An encoder with the settings above.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // JSON has no NaN or infinity. Written as text rather than failed: one such coordinate (a
        // PostgreSQL row written by hand can hold one) would fail every list page holding it, where
        // as text a reader leaves that record out and counts it ("latitude is not a number").
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(WireTimestamp.milliseconds(date))
        }
        return encoder
    }

    /// A decoder that reads what `encoder()` writes; a date is any ISO-8601 UTC timestamp.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = WireTimestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a timestamp: \(text)")
            }
            return date
        }
        return decoder
    }

    /// `value` as JSON text's bytes.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        Array(try encoder().encode(value))
    }

    /// A value of `type` read from JSON text.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        try decoder().decode(type, from: data(bytes))
    }

    /// The bytes as `Data`, copied from their storage: `Data`'s generic initialiser looks for
    /// contiguous storage with a dynamic cast, and a process's first cast of a kind scans every
    /// protocol conformance in the program (two scans, about 0.1 ms of `onthemap status`).
    private static func data(_ bytes: some Collection<UInt8>) -> Data {
        let copied = bytes.withContiguousStorageIfAvailable { buffer in
            buffer.baseAddress.map { Data(bytes: $0, count: buffer.count) } ?? Data()
        }
        return copied ?? Data(bytes)
    }
}
