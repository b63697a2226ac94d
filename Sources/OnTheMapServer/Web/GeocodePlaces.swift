import OnTheMapGeocoder
import OnTheMapModels

/// The body of `GET /v1/geocode`: `{"results":[{label, name, admin1, country, countryCode, latitude,
/// longitude}]}`, best first (docs/API.md).
struct GeocodePlaces: WireJSONRepresentable {
    var results: [GeocodeResult]

    var wireJSON: WireJSON {
        .object([
            (
                "results",
                .array(
                    results.map { place in
                        .object([
                            ("label", .string(Self.label(place))), ("name", .string(place.name)),
                            ("admin1", .string(place.admin1)), ("country", .string(place.country)),
                            ("countryCode", .string(place.countryCode)), ("latitude", .number(place.latitude)),
                            ("longitude", .number(place.longitude)),
                        ])
                    })
            )
        ])
    }

    /// Countries whose places people name by state or province ("Springfield, Illinois"); elsewhere
    /// by country ("Lima, Peru", not "Lima, Lima").
    static let namedByRegion: Set<String> = ["US", "CA", "AU"]

    /// The place as a person writes it, which the page stores as the pin's `mapString`.
    static func label(_ place: GeocodeResult) -> String {
        var parts = [place.name]
        let region = namedByRegion.contains(place.countryCode) ? place.admin1 : place.country
        let second = region.isEmpty ? place.country : region
        if !second.isEmpty, second != place.name { parts.append(second) }
        return parts.joined(separator: ", ")
    }
}
