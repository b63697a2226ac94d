import CWebPage

/// The web page's files (Sources/CWebPage/web: `index.html`, the style sheets, the ES modules under
/// `js/`), embedded in the executable at build time and read in place: no file is looked up at run
/// time. The server serves them (`WebAssets`); the exported map inlines the map's share of them
/// (`MapDocument.html`), so the browser page and the file show the same world.
public enum WebFiles {
    /// One embedded file.
    public struct File: @unchecked Sendable {
        // @unchecked: `bytes` points at the executable's read-only data, which nothing writes.
        /// Its path under web/, such as "js/app.mjs".
        public let name: String
        public let bytes: UnsafeRawBufferPointer

        /// Its text (every file is UTF-8).
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Every embedded file, in the order web.c lists them.
    public static let all: [File] = {
        var count = 0
        let table = onthemap_web_files(&count)!
        return (0..<count).map { index in
            let file = table[index]
            return File(name: String(cString: file.name), bytes: UnsafeRawBufferPointer(start: file.bytes, count: file.count))
        }
    }()

    /// The file at `name`, or nil.
    public static func named(_ name: String) -> File? {
        all.first { $0.name == name }
    }

    /// The text of a file this program ships; a missing one is a build that lost a file, not input.
    public static func text(_ name: String) -> String {
        guard let file = named(name) else { preconditionFailure("web/\(name) is not embedded (Sources/CWebPage/web.c)") }
        return file.text
    }
}
