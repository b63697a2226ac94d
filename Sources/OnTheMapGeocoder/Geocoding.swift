import OnTheMapModels

/// One candidate place for a free-text query.
public struct GeocodeResult: Sendable, Hashable {
    public var name: String
    public var admin1: String
    public var country: String
    public var countryCode: String
    public var latitude: Double
    public var longitude: Double
    /// `locality`, `region` or `country`.
    public var precision: String
    /// How well the query matched, 0…1.
    public var score: Double

    /// Creates a result.
    public init(
        name: String, admin1: String, country: String, countryCode: String, latitude: Double, longitude: Double,
        precision: String, score: Double
    ) {
        self.name = name
        self.admin1 = admin1
        self.country = country
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.precision = precision
        self.score = score
    }
}

/// Forward geocoding: free text to ranked places. An empty answer means "place not found".
public protocol Geocoding: Sendable {
    func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult]
}
