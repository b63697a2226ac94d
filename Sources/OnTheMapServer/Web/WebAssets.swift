import CompressNIO
import NIOCore
import OnTheMapMap
import Synchronization

/// The page's files, built from the strings compiled into the server on the first request for any
/// of them and kept, with their gzip forms and ETags, for the life of the process: about 0.5 MB
/// (docs/benchmarks.md). A server that never serves the page never builds them.
final class WebAssets: Sendable {
    /// One file as served.
    struct File: Sendable {
        let contentType: String
        let body: ByteBuffer
        /// The body gzipped, for clients that accept it.
        let gzipped: ByteBuffer
        /// A strong validator of `body`: a hash of its bytes, quoted. The gzip form's is this with
        /// `-gzip` inside the quotes (two encodings of one file are two representations).
        let etag: String
        /// Whether the file's name holds its version, so caches may keep it for good.
        let immutable: Bool
    }

    let settings: WebSettings
    /// Path → file, once built. Behind a lock: the first requests may come at once, on any thread;
    /// one of them builds (tens of milliseconds) while the others wait.
    private let files = Mutex<[String: File]?>(nil)

    init(settings: WebSettings) {
        self.settings = settings
    }

    /// The file served at `path` ("/", "/index.html", "/app.js" …), or nil.
    func file(at path: String) -> File? {
        files.withLock { files in
            if files == nil { files = Self.build(settings) }
            return files?[path == "/" ? "/index.html" : path]
        }
    }

    private static func build(_ settings: WebSettings) -> [String: File] {
        let script = File(
            contentType: "text/javascript; charset=utf-8",
            text: "(function(){\n\"use strict\";\n" + MapScript.engine + "\n" + WebScript.source + "\n})();\n", immutable: true)
        let style = File(
            contentType: "text/css; charset=utf-8", text: MapDocumentAssets.mapCSS + "\n" + WebStyle.css, immutable: true)
        let icon = File(contentType: "image/svg+xml", text: WebPage.favicon, immutable: true)
        // The page names each file with its ETag, so a new server's files are fetched anew.
        let page = File(
            contentType: "text/html; charset=utf-8",
            text: WebPage.html(
                settings: settings, scriptVersion: script.version, styleVersion: style.version, iconVersion: icon.version),
            immutable: false)
        return ["/index.html": page, "/app.js": script, "/app.css": style, "/icon.svg": icon]
    }
}

extension WebAssets.File {
    init(contentType: String, text: String, immutable: Bool) {
        let body = ByteBuffer(string: text)
        var input = body
        // Best compression: done once, and the page is most of what a phone downloads. Copied into a
        // buffer of its size: the compressor's has room for the worst case, about the body's size.
        let gzipped = (try? input.compress(with: .gzip(configuration: .init(compressionLevel: 9)))).map {
            ByteBuffer(bytes: $0.readableBytesView)
        } ?? body
        self.init(
            contentType: contentType, body: body, gzipped: gzipped, etag: "\"\(Self.hash(body))\"", immutable: immutable)
    }

    /// The version in the file's URL: its ETag without quotes.
    var version: String { String(etag.dropFirst().dropLast()) }

    /// The ETag of the gzip form.
    var gzipETag: String { "\"\(version)-gzip\"" }

    /// FNV-1a, 64 bits, in hex: a validator, not a defence (the files are the server's own).
    private static func hash(_ buffer: ByteBuffer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in buffer.readableBytesView {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
