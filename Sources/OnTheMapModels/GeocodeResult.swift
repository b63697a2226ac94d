/// One candidate place for a free-text query: what a geocoder finds and what `geocode` answers.
public struct GeocodeResult: Sendable, Hashable {
    public var name: String
    public var admin1: String
    public var country: String
    public var countryCode: String
    public var latitude: Double
    public var longitude: Double
    /// `locality`, `region`, `country`, `continent` or `ocean`.
    public var precision: String
    /// How well the query matched, 0…1.
    public var score: Double
    /// For a continent or an ocean: how far from its point it reaches, in kilometres, so a map around it
    /// shows it whole. Nil for places, regions and countries.
    public var extentKm: Double?

    /// Creates a result.
    public init(
        name: String, admin1: String, country: String, countryCode: String, latitude: Double, longitude: Double,
        precision: String, score: Double, extentKm: Double? = nil
    ) {
        self.name = name
        self.admin1 = admin1
        self.country = country
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.precision = precision
        self.score = score
        self.extentKm = extentKm
    }

    /// "Springfield, Illinois, United States": the name, its region and its country, as far as they
    /// are known and differ; what a pin posted there shows as its place.
    public var label: String {
        var parts: [String] = []
        for part in [name, admin1, country] where !part.isEmpty && !parts.contains(part) { parts.append(part) }
        return parts.joined(separator: ", ")
    }

    /// "Springfield, Illinois", "Lyon, France": how a pin posted here names its place, as students'
    /// pins do (a town with its state in the United States, with its country elsewhere).
    public var placeName: String {
        let within: String
        switch precision {
        case "country", "continent", "ocean": return name
        case "region": within = country
        default: within = countryCode == "US" && !admin1.isEmpty ? admin1 : country
        }
        return within.isEmpty || within == name ? name : "\(name), \(within)"
    }
}
