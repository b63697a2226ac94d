import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// What the daemon's geocoder finds for a place someone typed, for `post`, `--near` and `geocode`.
enum Place {
    /// The matches, best first; none is an empty list, not an error.
    static func candidates(_ text: String, limit: Int, on connection: RPCConnection) throws -> [GeocodeResult] {
        do {
            return try connection.result(GeocodeParams(query: text, limit: limit)).results
        } catch let error as RPCError where error.code == RPCError.placeNotFoundCode {
            return []
        }
    }

    /// Nothing matched `text`: what to try instead (`orCoordinates`: LAT,LON is accepted too).
    static func notFound(_ text: String, orCoordinates: Bool = false) -> CommandFailure {
        CommandFailure(message: "no place matches \"\(DisplayText.clean(text))\": try \"City, Country\"\(orCoordinates ? " or LAT,LON" : "")")
    }
}
