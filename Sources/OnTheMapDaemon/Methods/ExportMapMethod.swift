import OnTheMapRPC

/// `exportMap` (`ExportMapParams`) → every cached student on a world map, as one HTML page or SVG image.
enum ExportMapMethod: RPCMethod {
    static func answer(_ request: ExportMapParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(try await daemon.exportMap(request))
    }
}
