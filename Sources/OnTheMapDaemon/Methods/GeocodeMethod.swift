import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapRPC

/// `geocode {query, limit?}` → candidate places. Needs no login.
enum GeocodeMethod: RPCMethod {
    static let name = "geocode"
    static let summary = "Places matching free text, best first: {results: [{name, admin1, country, countryCode, latitude, longitude, precision, score}]}."
    static let params: [(String, String, Bool, String)] = [
        ("query", "string", true, "what a person typed, e.g. \"Duisburg, Germany\""),
        ("limit", "integer", false, "at most this many (default 5)"),
    ]

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let reader = try RPCParams(params, allowed: allowedParams)
        let query = try reader.requiredString("query")
        guard query.utf8.count <= PlaceQuery.maximumBytes else {
            throw RPCError.invalidParams(field: "query", "is too long (at most \(PlaceQuery.maximumBytes) bytes)")
        }
        let limit = try reader.int("limit", in: 1...50) ?? 5
        let results = try await daemon.geocoder.geocode(query, limit: limit)
        guard !results.isEmpty else {
            throw RPCError.application(RPCError.placeNotFoundCode, "No place matches \"\(query)\".", retryable: false)
        }
        return .value(.object([("results", .array(results.map(\.wireJSON)))]))
    }
}
