import Crypto
import NIOCore

/// Strong entity tags for the lists a client polls, and the `If-None-Match` check that turns an
/// unchanged list into a bodiless `304 Not Modified`.
///
/// The tag is a digest of the bytes themselves, not of a version number: two replicas that encode
/// the same pins give the same tag (a client balanced between them still gets its 304), and a
/// database restored to an older state can never pass off different bytes under a tag seen before.
enum EntityTag {
    /// `"…"`: the first 128 bits of the bytes' SHA-256, in hex. Computed once per encoded list.
    static func of(_ bytes: ByteBuffer) -> String {
        let digest = bytes.withUnsafeReadableBytes { SHA256.hash(data: $0) }
        let hex = digest.prefix(16).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }
        return "\"" + hex.joined() + "\""
    }

    /// Whether an `If-None-Match` value names one of `etags` (or is `*`), so the answer is a 304: the
    /// lists' check, and the web page's files' (which have a tag for each encoding).
    ///
    /// RFC 9110 §13.1.2 compares weakly for this header: `W/"x"` matches `"x"`. A malformed value
    /// matches nothing, so the client gets the full answer, as if it had sent no header.
    static func ifNoneMatch(_ header: String?, matches etags: String...) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var tag = candidate.drop { $0 == " " || $0 == "\t" }
            while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if etags.contains(where: { tag == $0 }) { return true }
        }
        return false
    }
}
