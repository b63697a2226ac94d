import OnTheMapModels
import OnTheMapRPC

/// `postPin` (`PostPinParams`) → `{pin, created}`.
enum PostPinMethod: RPCMethod {
    static func answer(_ request: PostPinParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let pin = PinRequest(
            mapString: request.mapString.trimmingWhitespace(), mediaURL: request.mediaURL.trimmingWhitespace(),
            latitude: request.latitude, longitude: request.longitude, overwrite: request.overwrite ?? false)
        return .value(try await daemon.postPin(pin).wireJSON)
    }
}
