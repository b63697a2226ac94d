import Foundation
import OnTheMapModels

/// A small built-in gazetteer (major cities and countries) so the daemon can place pins offline.
///
/// It matches the first part of a query ("Paris, France" → "paris") against city names and alternate
/// names, and checks any further parts against the region and country. The full GeoNames-based
/// geocoder (issue 5) replaces it behind the same `Geocoding` protocol.
public struct StarterGazetteer: Geocoding {
    struct Place {
        var name: String
        var admin1: String
        var country: String
        var countryCode: String
        var latitude: Double
        var longitude: Double
        var population: Int
        var alternates: [String] = []
    }

    static let places: [Place] = [
        Place(name: "Mountain View", admin1: "California", country: "United States", countryCode: "US", latitude: 37.38605, longitude: -122.08385, population: 82_000),
        Place(name: "San Francisco", admin1: "California", country: "United States", countryCode: "US", latitude: 37.77493, longitude: -122.41942, population: 864_816),
        Place(name: "Los Angeles", admin1: "California", country: "United States", countryCode: "US", latitude: 34.05223, longitude: -118.24368, population: 3_971_883),
        Place(name: "New York", admin1: "New York", country: "United States", countryCode: "US", latitude: 40.71427, longitude: -74.00597, population: 8_175_133, alternates: ["NYC", "New York City"]),
        Place(name: "Seattle", admin1: "Washington", country: "United States", countryCode: "US", latitude: 47.60621, longitude: -122.33207, population: 684_451),
        Place(name: "Austin", admin1: "Texas", country: "United States", countryCode: "US", latitude: 30.26715, longitude: -97.74306, population: 931_830),
        Place(name: "Chicago", admin1: "Illinois", country: "United States", countryCode: "US", latitude: 41.85003, longitude: -87.65005, population: 2_720_546),
        Place(name: "Boston", admin1: "Massachusetts", country: "United States", countryCode: "US", latitude: 42.35843, longitude: -71.05977, population: 667_137),
        Place(name: "Arlington", admin1: "Virginia", country: "United States", countryCode: "US", latitude: 38.88101, longitude: -77.10428, population: 229_164),
        Place(name: "Huntsville", admin1: "Alabama", country: "United States", countryCode: "US", latitude: 34.7304, longitude: -86.58594, population: 190_582),
        Place(name: "Toronto", admin1: "Ontario", country: "Canada", countryCode: "CA", latitude: 43.70011, longitude: -79.4163, population: 2_600_000),
        Place(name: "London", admin1: "England", country: "United Kingdom", countryCode: "GB", latitude: 51.50853, longitude: -0.12574, population: 8_961_989),
        Place(name: "Paris", admin1: "Île-de-France", country: "France", countryCode: "FR", latitude: 48.85341, longitude: 2.3488, population: 2_138_551),
        Place(name: "Berlin", admin1: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52437, longitude: 13.41053, population: 3_426_354),
        Place(name: "Munich", admin1: "Bavaria", country: "Germany", countryCode: "DE", latitude: 48.13743, longitude: 11.57549, population: 1_260_391, alternates: ["München"]),
        Place(name: "Cologne", admin1: "North Rhine-Westphalia", country: "Germany", countryCode: "DE", latitude: 50.93333, longitude: 6.95, population: 963_395, alternates: ["Köln"]),
        Place(name: "Duisburg", admin1: "North Rhine-Westphalia", country: "Germany", countryCode: "DE", latitude: 51.43247, longitude: 6.76516, population: 504_358),
        Place(name: "Madrid", admin1: "Madrid", country: "Spain", countryCode: "ES", latitude: 40.4165, longitude: -3.70256, population: 3_255_944),
        Place(name: "Rome", admin1: "Lazio", country: "Italy", countryCode: "IT", latitude: 41.89193, longitude: 12.51133, population: 2_318_895, alternates: ["Roma"]),
        Place(name: "Amsterdam", admin1: "North Holland", country: "Netherlands", countryCode: "NL", latitude: 52.37403, longitude: 4.88969, population: 741_636),
        Place(name: "Lagos", admin1: "Lagos", country: "Nigeria", countryCode: "NG", latitude: 6.45407, longitude: 3.39467, population: 9_000_000),
        Place(name: "Nairobi", admin1: "Nairobi", country: "Kenya", countryCode: "KE", latitude: -1.28333, longitude: 36.81667, population: 2_750_547),
        Place(name: "Cairo", admin1: "Cairo", country: "Egypt", countryCode: "EG", latitude: 30.06263, longitude: 31.24967, population: 7_734_614),
        Place(name: "Mumbai", admin1: "Maharashtra", country: "India", countryCode: "IN", latitude: 19.07283, longitude: 72.88261, population: 12_691_836, alternates: ["Bombay"]),
        Place(name: "Patiala", admin1: "Punjab", country: "India", countryCode: "IN", latitude: 30.33625, longitude: 76.3922, population: 329_224),
        Place(name: "Bengaluru", admin1: "Karnataka", country: "India", countryCode: "IN", latitude: 12.97194, longitude: 77.59369, population: 5_104_047, alternates: ["Bangalore"]),
        Place(name: "Tokyo", admin1: "Tokyo", country: "Japan", countryCode: "JP", latitude: 35.6895, longitude: 139.69171, population: 8_336_599, alternates: ["東京"]),
        Place(name: "Seoul", admin1: "Seoul", country: "South Korea", countryCode: "KR", latitude: 37.566, longitude: 126.9784, population: 10_349_312),
        Place(name: "Singapore", admin1: "", country: "Singapore", countryCode: "SG", latitude: 1.28967, longitude: 103.85007, population: 3_547_809),
        Place(name: "Sydney", admin1: "New South Wales", country: "Australia", countryCode: "AU", latitude: -33.86785, longitude: 151.20732, population: 4_627_345),
        Place(name: "São Paulo", admin1: "São Paulo", country: "Brazil", countryCode: "BR", latitude: -23.5475, longitude: -46.63611, population: 10_021_295),
        Place(name: "Atibaia", admin1: "São Paulo", country: "Brazil", countryCode: "BR", latitude: -23.11694, longitude: -46.55028, population: 115_000),
        Place(name: "Buenos Aires", admin1: "Buenos Aires F.D.", country: "Argentina", countryCode: "AR", latitude: -34.61315, longitude: -58.37723, population: 13_076_300),
        Place(name: "Mexico City", admin1: "Mexico City", country: "Mexico", countryCode: "MX", latitude: 19.42847, longitude: -99.12766, population: 12_294_193, alternates: ["Ciudad de México"]),
    ]

    /// Creates the gazetteer.
    public init() {}

    public func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult] {
        let parts = query.split(separator: ",").map { SearchText.fold($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        guard let head = parts.first else { return [] }
        let qualifiers = parts.dropFirst()
        var results: [GeocodeResult] = []
        for place in Self.places {
            let names = ([place.name] + place.alternates).map(SearchText.fold)
            guard names.contains(head) else { continue }
            let context = [place.admin1, place.country, place.countryCode].map(SearchText.fold)
            let matched = qualifiers.filter { qualifier in context.contains { $0 == qualifier || $0.hasPrefix(qualifier) } }
            if !qualifiers.isEmpty && matched.isEmpty { continue }
            let score = 0.6 + 0.4 * (qualifiers.isEmpty ? 0.5 : Double(matched.count) / Double(qualifiers.count))
            results.append(GeocodeResult(
                name: place.name, admin1: place.admin1, country: place.country, countryCode: place.countryCode,
                latitude: place.latitude, longitude: place.longitude, precision: "locality", score: score))
        }
        return Array(results.sorted { $0.score > $1.score }.prefix(limit))
    }
}
