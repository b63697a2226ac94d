import OnTheMapModels

/// Forward geocoding: free text to ranked places (`GeocodeResult`, best first). An empty answer
/// means "place not found".
public protocol Geocoding: Sendable {
    func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult]
}
