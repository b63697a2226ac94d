import OnTheMapModels

/// `exportMap {format}` → `{format, students, document}`: the world with every cached student as one
/// self-contained HTML page or SVG image.
public struct ExportMapParams: RPCRequestType, Equatable {
    public typealias Response = ExportMapResult
    public static let method = "exportMap"
    public static let summary = """
        Every cached student on a world map as one self-contained file: {format, students, document}; requires login.
        """

    /// What the file is.
    public enum Format: String, Sendable, CaseIterable, Codable {
        case html, svg
    }

    public static let format = RPCParam<Format>.choice(
        "format", required: true, "\"html\" (popups, zoom and pan, a search box) or \"svg\" (a still image with links)")
    public static let parameters = [format.parameter]

    public var format: Format

    public init(format: Format) {
        self.format = format
    }

    public init(reading params: RPCParams) throws(RPCError) {
        format = try params.required(Self.format)
    }

    public var params: WireJSON? {
        var writer = RPCParamsWriter()
        writer.add(Self.format, format)
        return writer.params
    }
}

/// `exportMap`'s result.
public struct ExportMapResult: RPCResultType, Equatable {
    public var format: ExportMapParams.Format
    /// How many students the document shows.
    public var students: Int
    /// The HTML page or SVG image.
    public var document: String

    public init(format: ExportMapParams.Format, students: Int, document: String) {
        self.format = format
        self.students = students
        self.document = document
    }
}
