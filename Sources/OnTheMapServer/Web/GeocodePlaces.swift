import OnTheMapGeocoder
import OnTheMapModels

/// The body of `GET /v1/geocode`: `{"results":[{label, name, admin1, country, countryCode, latitude,
/// longitude}]}`, best first (docs/API.md).
///
/// `label` is `GeocodeResult.label`, the one rule that names a place everywhere (docs/GEOCODING.md):
/// the page shows it and posts it as the pin's `mapString`, naming nothing itself.
struct GeocodePlaces: WireJSONRepresentable {
    var results: [GeocodeResult]

    /// The places found, best first, each label once (`eachLabelOnce`).
    init(results: [GeocodeResult], limit: Int = .max) {
        self.results = results.eachLabelOnce(limit: limit)
    }

    var wireJSON: WireJSON {
        .object([
            (
                "results",
                .array(
                    results.map { place in
                        .object([
                            ("label", .string(place.label)), ("name", .string(place.name)),
                            ("admin1", .string(place.admin1)), ("country", .string(place.country)),
                            ("countryCode", .string(place.countryCode)), ("latitude", .number(place.latitude)),
                            ("longitude", .number(place.longitude)),
                        ])
                    })
            )
        ])
    }
}
