import Crypto
import NIOCore

/// The server's one hash of content: the first 128 bits of SHA-256, in hex. It tags the lists and
/// the page's files (`EntityTag`), names the page's files' version folder (`WebAssets`), and tells
/// two copies of a database apart (`StorageSnapshot.checksum`, fed row by row).
enum ContentDigest {
    static func hex(of bytes: ByteBuffer) -> String {
        hex(bytes.withUnsafeReadableBytes { SHA256.hash(data: $0) })
    }

    /// The first 128 bits of `digest`, in hex.
    static func hex(_ digest: SHA256.Digest) -> String {
        digest.prefix(16).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
