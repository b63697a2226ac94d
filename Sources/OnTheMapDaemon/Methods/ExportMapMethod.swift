import OnTheMapRPC

/// `exportMap` (`ExportMapParams`) → every cached student on a world map, as one HTML page or SVG image.
enum ExportMapMethod: RPCMethod {
    static func answer(_ request: ExportMapParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let (document, students) = try await daemon.exportMap(request.format)
        return .value(ExportMapResult(format: request.format, students: students, document: document).wireJSON)
    }
}
