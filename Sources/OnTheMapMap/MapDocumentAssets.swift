/// The style and script the exported page inlines: the server page's files for the map
/// (Sources/CWebPage/web), so the file and the browser page show and move the same world.
enum MapDocumentAssets {
    /// The world's colours, the moving map's style, then the export page's own.
    static var exportStyle: String {
        ["world.css", "map.css", "export.css"].map(WebFiles.text).joined(separator: "\n")
    }

    /// The export page's module with the map's modules it imports, as one inline module.
    static var exportScript: String {
        WebFiles.inlinedModule("js/export.mjs")
    }
}
