import OnTheMapGeocoder
import OnTheMapRPC

/// `geocode` (`GeocodeParams`) → candidate places. Needs no login.
enum GeocodeMethod: RPCMethod {
    static func answer(_ request: GeocodeParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let results = try await daemon.geocoder.geocode(request.query, limit: request.limit ?? GeocodeParams.defaultLimit)
        guard !results.isEmpty else {
            throw RPCError.application(RPCError.placeNotFoundCode, "No place matches \"\(request.query)\".", retryable: false)
        }
        return .value(GeocodeResults(results: results.map(GeocodeResults.Place.init)).wireJSON)
    }
}

extension GeocodeResults.Place {
    /// The geocoder's answer, as `geocode` sends it.
    init(_ result: GeocodeResult) {
        self.init(
            name: result.name, admin1: result.admin1, country: result.country, countryCode: result.countryCode,
            latitude: result.latitude, longitude: result.longitude, precision: result.precision, score: result.score)
    }
}
