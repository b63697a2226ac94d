/// The default geocoder: the GeoNames gazetteer built into the executable, no network needed.
public struct OfflineGeocoder: Geocoding {
    public init() {}

    public func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult] {
        search(query, limit: limit)
    }

    /// Synchronous search, for callers outside async code (benchmarks, tools).
    public func search(_ query: String, limit: Int) -> [GeocodeResult] {
        GazetteerMatcher(gazetteer: Gazetteer.embedded).search(query, limit: limit)
    }

    /// Loads and indexes the gazetteer now instead of at the first query.
    public static func preload() {
        _ = Gazetteer.embedded.places.count
    }
}
