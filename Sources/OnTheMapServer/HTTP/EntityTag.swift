import NIOCore

/// Strong entity tags for the lists a client polls and the page's files, and the `If-None-Match`
/// check that turns an unchanged one into a bodiless `304 Not Modified`.
///
/// The tag is a digest of the bytes themselves, not of a version number: two replicas that encode
/// the same pins give the same tag (a client balanced between them still gets its 304), and a
/// database restored to an older state can never pass off different bytes under a tag seen before.
enum EntityTag {
    /// `"…"`: the bytes' `ContentDigest`, quoted. Computed once per encoded list or file.
    static func of(_ bytes: ByteBuffer) -> String {
        "\"" + ContentDigest.hex(of: bytes) + "\""
    }

    /// The tag of `tag`'s bytes gzipped: the same, made weak (`W/"…"`), as nginx does. The bytes
    /// differ but mean the same, and `ifNoneMatch` compares weakly, so either tag gets a 304.
    static func gzipped(_ tag: String) -> String {
        tag.hasPrefix("\"") ? "W/" + tag : tag
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`), so the answer is a 304: the lists'
    /// check, and the web page's files'. Their gzipped forms' tags (`gzipped`) match too.
    ///
    /// RFC 9110 §13.1.2 compares weakly for this header: `W/"x"` matches `"x"`. A malformed value
    /// matches nothing, so the client gets the full answer, as if it had sent no header.
    static func ifNoneMatch(_ header: String?, matches etag: String) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var tag = candidate.drop { $0 == " " || $0 == "\t" }
            while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
