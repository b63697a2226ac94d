/// One candidate place for a free-text query: what a geocoder finds and what `geocode` answers.
public struct GeocodeResult: Sendable, Hashable, Codable {
    public var name: String
    public var admin1: String
    public var country: String
    public var countryCode: String
    public var latitude: Double
    public var longitude: Double
    /// `locality` (a town or city), `region`, `country`, `continent` or `ocean`.
    public var precision: String
    /// How well the query matched, 0…1.
    public var score: Double
    /// For a continent or an ocean: how far from its point it reaches, in kilometres, so a map around it
    /// shows it whole. Nil for places, regions and countries.
    public var extentKm: Double?
    /// The place in words, by the one rule (`PlaceLabel.text`): what a person is shown, and what a pin
    /// posted there reads.
    public var label: String

    /// Creates a result; its label follows from the names.
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
        self.label = PlaceLabel.text(name: name, region: admin1, country: country)
    }
}

extension [GeocodeResult] {
    /// How many candidates to ask a geocoder for, so that `limit` remain once each label is kept
    /// once: a few more.
    public static func asked(for limit: Int) -> Int { limit + 5 }

    /// The candidates, best first, each label once and at most `limit`: two places a person cannot
    /// tell apart (the city of Lima and the region of Lima, both "Lima, Peru") are one candidate,
    /// the better match. What `geocode` and `/v1/geocode` answer.
    public func eachLabelOnce(limit: Int) -> [GeocodeResult] {
        var seen: Set<String> = []
        return Array(filter { seen.insert($0.label).inserted }.prefix(limit))
    }
}

/// The one rule for naming a place, everywhere a place is shown or stored (docs/GEOCODING.md): its
/// name, its region and its country, each once — "Toronto, Ontario, Canada", "Springfield, Illinois,
/// United States", "Lima, Peru" (the region Lima is dropped as a repeat), "Ontario, Canada", "Canada".
///
/// Why all three: two places of one name in one country ("Springfield, Illinois" and "Springfield,
/// Ohio") must read apart wherever a person picks one, and a pin must say where it is to someone on
/// the other side of the world. Status bars that are short of room cut the text, they do not rename.
public enum PlaceLabel {
    /// The label of a place with these names; empty parts are left out.
    public static func text(name: String, region: String, country: String) -> String {
        var parts: [String] = []
        for part in [name, region, country] where !part.isEmpty && !parts.contains(part) { parts.append(part) }
        return parts.joined(separator: ", ")
    }
}
