/// The 5 bytes `)]}'` + newline that the session and user endpoints put before their JSON.
///
/// Udacity adds them against JSON hijacking (XSSI); clients strip them. StudentLocation responses
/// never carry them, so stripping is conditional.
public enum XSSIPrefix {
    /// The exact prefix bytes.
    public static let bytes: [UInt8] = Array(")]}'\n".utf8)

    /// The body without the prefix, if it has one; otherwise the body unchanged.
    public static func strip<Bytes: Collection<UInt8>>(_ body: Bytes) -> Bytes.SubSequence {
        if body.starts(with: bytes) {
            return body.dropFirst(bytes.count)
        }
        return body[...]
    }
}
