/// A geocoder that could not answer: the network, the server, or its format.
public struct GeocoderError: Error, CustomStringConvertible {
    public enum Kind: Sendable { case unreachable, failed, malformed }
    public var kind: Kind
    public var description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
