import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapRPC

extension Daemon {
    /// Candidate places for `geocode`, each label once (as `/v1/geocode` answers); -32005 when
    /// nothing matches.
    func geocode(_ params: GeocodeParams) async throws -> GeocodeResults {
        let limit = params.limit ?? GeocodeParams.defaultLimit
        let results = try await geocode(params.query, limit: [GeocodeResult].asked(for: limit)).eachLabelOnce(limit: limit)
        guard !results.isEmpty else {
            throw RPCError.application(RPCError.placeNotFoundCode, "No place matches \"\(params.query)\".", retryable: false)
        }
        return GeocodeResults(results: results)
    }

    /// The geocoder's answer; the offline geocoder's index is dropped again once unused for a while.
    func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult] {
        defer { memoryTrimmer.geocoderUsed() }
        return try await geocoder.geocode(query, limit: limit)
    }
}
