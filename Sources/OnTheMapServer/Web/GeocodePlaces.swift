import OnTheMapGeocoder
import OnTheMapModels

/// The body of `GET /v1/geocode`: `{"results":[GeocodeResult]}`, best first, each place as the
/// daemon's `geocode` answers it (docs/API.md): one type, encoded one way.
///
/// `label` is `GeocodeResult.label`, the one rule that names a place everywhere (docs/GEOCODING.md):
/// the page shows it and posts it as the pin's `mapString`, naming nothing itself.
struct GeocodePlaces: Encodable {
    var results: [GeocodeResult]

    /// The places found, best first, each label once (`eachLabelOnce`).
    init(results: [GeocodeResult], limit: Int = .max) {
        self.results = results.eachLabelOnce(limit: limit)
    }
}
