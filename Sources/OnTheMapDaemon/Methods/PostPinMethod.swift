import OnTheMapModels
import OnTheMapRPC

/// `postPin {mapString, mediaURL, latitude?, longitude?, overwrite?}` → `{pin, created}`.
enum PostPinMethod: RPCMethod {
    static let name = "postPin"
    static let summary = "Post the user's pin, geocoding mapString unless coordinates are given; -32006 if a pin exists and overwrite is not true."
    static let params: [(String, String, Bool, String)] = [
        ("mapString", "string", true, "the place as the user typed it"),
        ("mediaURL", "string", true, "an http(s) link"),
        ("latitude", "number", false, "with longitude, skips geocoding"),
        ("longitude", "number", false, "with latitude, skips geocoding"),
        ("overwrite", "boolean", false, "move an existing pin (default false)"),
    ]

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let reader = try RPCParams(params, allowed: allowedParams)
        let latitude = try reader.double("latitude", in: -90...90)
        let longitude = try reader.double("longitude", in: -180...180)
        if (latitude == nil) != (longitude == nil) {
            throw RPCError.invalidParams(field: latitude == nil ? "latitude" : "longitude", "is required when the other coordinate is given")
        }
        let request = PinRequest(
            mapString: try reader.requiredString("mapString").trimmingWhitespace(),
            mediaURL: try reader.requiredString("mediaURL").trimmingWhitespace(),
            latitude: latitude, longitude: longitude, overwrite: try reader.bool("overwrite") ?? false)
        return .value(try await daemon.postPin(request))
    }
}
