import CompressNIO
import NIOCore
import OnTheMapMap
import Synchronization

/// The page's files as served: the embedded ones (`WebFiles`, Sources/CWebPage/web) with their gzip
/// forms and ETags, built on the first request for any of them and kept for the life of the process
/// (docs/benchmarks.md). A server that never serves the page never builds them.
///
/// The style sheets, scripts, icons and the map's names (`names.json`, `MapLabels.webJSON`) are
/// served under `assets/VERSION/`, VERSION a hash of them all: their addresses change with their
/// bytes, so browsers keep them for good, and the modules' relative imports (`./map-view.mjs`) stay
/// within one version. The files at the page's root, revalidated on each load, are filled in here:
/// the page (`index.html`: the operator's settings, that folder, the world drawn by the export's
/// code, `MapDocument.worldSVG`), its service worker (`sw.js`: that folder and its files) and its
/// web app manifest (`manifest.webmanifest`: the icons in that folder).
final class WebAssets: Sendable {
    /// One file as served.
    struct File: Sendable {
        let contentType: String
        let body: ByteBuffer
        /// The body gzipped, for clients that accept it (nil: sent as it is, to every client).
        let gzipped: ByteBuffer?
        /// A strong validator of `body` (`EntityTag.of`); the gzip form's is this made weak
        /// (`EntityTag.gzipped`), as a gzipped list's.
        let etag: String
        /// Whether the file's address holds its version, so caches may keep it for good.
        let immutable: Bool
    }

    /// The embedded files that are the exported map's alone, not the page's.
    static let exportOnly: Set<String> = ["export.html", "export.css", "js/export.mjs"]
    /// The templates served at the page's root.
    static let atRoot = ["index.html", "sw.js", "manifest.webmanifest"]

    let settings: WebSettings
    /// Path → file, once built. Behind a lock: the first requests may come at once, on any thread;
    /// one of them builds (tens of milliseconds) while the others wait.
    private let files = Mutex<[String: File]?>(nil)

    init(settings: WebSettings) {
        self.settings = settings
    }

    /// The file served at `path` ("/", "/index.html", "/assets/…/app.css" …), or nil.
    func file(at path: String) -> File? {
        files.withLock { files in
            if files == nil { files = Self.build(settings) }
            return files?[path == "/" ? "/index.html" : path]
        }
    }

    private static func build(_ settings: WebSettings) -> [String: File] {
        var served = WebFiles.all.filter { !atRoot.contains($0.name) && !exportOnly.contains($0.name) }
            .map { (name: $0.name, body: ByteBuffer(bytes: $0.bytes)) }
        served.append((name: "names.json", body: ByteBuffer(string: MapLabels.embedded.webJSON())))
        let folder = "assets/" + version(of: served)
        var files: [String: File] = [:]
        for file in served {
            files["/\(folder)/\(file.name)"] = File(contentType: contentType(of: file.name), body: file.body, immutable: true)
        }
        let names = served.map { "\"\($0.name)\"" }.joined(separator: ",")
        let modules = served.filter { $0.name.hasSuffix(".mjs") && $0.name != "js/app.mjs" }
            .map { #"<link rel="modulepreload" href="\#(folder)/\#($0.name)">"# }.joined(separator: "\n")
        let values = [
            "settings": WebPage.meta(settings), "assets": folder, "world": MapDocument.worldSVG(), "files": "[\(names)]",
            "modules": modules,
        ]
        for name in atRoot {
            files["/" + name] = File(
                contentType: contentType(of: name), body: ByteBuffer(string: WebFiles.fill(WebFiles.text(name), values)),
                immutable: false)
        }
        return files
    }

    /// The folder's version: a hash of every file's name and bytes.
    private static func version(of files: [(name: String, body: ByteBuffer)]) -> String {
        var all = ByteBuffer()
        for file in files {
            all.writeString(file.name + "\n")
            all.writeImmutableBuffer(file.body)
        }
        return String(ContentDigest.hex(of: all).prefix(16))
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "mjs", "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        default: "application/octet-stream"
        }
    }
}

extension WebAssets.File {
    init(contentType: String, body: ByteBuffer, immutable: Bool) {
        var input = body
        // Best compression: done once, and the page is most of what a phone downloads. Copied into a
        // buffer of its size: the compressor's has room for the worst case, about the body's size. A
        // PNG is compressed already: it is sent as it is.
        let gzipped = contentType == "image/png" ? nil : (try? input.compress(with: .gzip(configuration: .init(compressionLevel: 9)))).map {
            ByteBuffer(bytes: $0.readableBytesView)
        }
        self.init(
            contentType: contentType, body: body, gzipped: gzipped, etag: EntityTag.of(body), immutable: immutable)
    }
}
