import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC

/// `exportMap {format}` → `{format, students, document}`: the world with every cached student as one
/// self-contained HTML page or SVG image.
enum ExportMapMethod: RPCMethod {
    static let name = "exportMap"
    static let summary = """
        Every cached student on a world map as one self-contained file: {format, students, document}; requires login.
        """
    static let params: [(String, String, Bool, String)] = [
        ("format", "string", true, "\"html\" (popups, zoom and pan, a search box) or \"svg\" (a still image with links)")
    ]

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let reader = try RPCParams(params, allowed: allowedParams)
        let format = try reader.requiredString("format")
        guard let kind = MapDocumentKind(rawValue: format) else {
            throw RPCError.invalidParams(field: "format", "must be \"html\" or \"svg\"")
        }
        let (document, students) = try await daemon.exportMap(kind)
        return .value(.object([("format", .string(format)), ("students", .integer(students)), ("document", .string(document))]))
    }
}
