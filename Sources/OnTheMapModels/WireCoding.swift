#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON decoder the client and server read wire bodies with (they write them with `WireJSON`).
public enum WireCoding {
    /// A decoder with default strategies: the models parse dates themselves, liberally.
    public static func decoder() -> JSONDecoder {
        JSONDecoder()
    }
}
