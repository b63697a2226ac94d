#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON coders every side of the wire uses, so client, server and daemon produce the same bytes.
public enum WireCoding {
    /// Encodes keys in declaration order (the order the real service uses), without escaping `/`.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// A decoder with default strategies: the models parse dates themselves, liberally.
    public static func decoder() -> JSONDecoder {
        JSONDecoder()
    }
}
