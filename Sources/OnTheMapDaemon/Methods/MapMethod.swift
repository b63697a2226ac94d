import OnTheMapMap
import OnTheMapRPC

/// `map` (`MapParams`) → the world with the cached students' pins, drawn in terminal cells.
enum MapMethod: RPCMethod {
    static func answer(_ request: MapParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .bytes(MapResult(try await daemon.map(MapRequest(request))).serializedBytes)
    }
}

/// What `map` draws, in the map module's terms: sizes and charset with their defaults, and the view
/// resolved, or a place the daemon geocodes first.
struct MapRequest: Sendable {
    enum Where: Sendable {
        case view(MapViewRequest)
        case place(String, radiusKm: Double)
    }

    var width: Int
    var height: Int
    var place: Where
    var charset: MapCharset

    init(_ params: MapParams) {
        width = params.width ?? MapParams.defaultSize.width
        height = params.height ?? MapParams.defaultSize.height
        charset = params.charset == .ascii ? .ascii : .braille
        let radiusKm = params.radiusKm ?? MapParams.defaultRadiusKm
        switch (params.fit, params.center, params.near) {
        case (.pins?, _, _):
            place = .view(.pins)
        case (_, let center?, _):
            place = .view(.center(latitude: center.latitude, longitude: center.longitude, zoom: params.zoom ?? 1))
        case (_, _, .place(let text)?):
            place = .place(text, radiusKm: radiusKm)
        case (_, _, .point(let point)?):
            place = .view(.near(latitude: point.latitude, longitude: point.longitude, radiusKm: radiusKm))
        default:
            place = .view(.world)
        }
    }
}
