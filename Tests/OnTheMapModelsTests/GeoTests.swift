import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// One Earth for every distance: the daemon's `near`, the map's `near` view and the geocoder's rules.
@Suite("Great-circle distances", .ownThreads)
struct GeoTests {
    @Test func knownDistances() {
        // Paris–London and Sydney–Santiago, as great-circle distances on the mean sphere.
        #expect(abs(Geo.distanceKm(48.8566, 2.3522, 51.5074, -0.1278) - 343.56) < 0.1)
        #expect(abs(Geo.distanceKm(-33.8688, 151.2093, -33.4489, -70.6693) - 11_346.7) < 0.5)
        #expect(Geo.distanceKm(10, 20, 10, 20) == 0)
    }

    @Test func halfwayRoundIsHalfTheCircumference() {
        #expect(abs(Geo.distanceKm(0, 0, 0, 180) - Geo.earthCircumferenceKm / 2) < 1e-6)
        #expect(abs(Geo.distanceKm(90, 0, -90, 0) - Geo.earthCircumferenceKm / 2) < 1e-6)
        #expect(Geo.earthRadiusKm == 6371.0088)
    }

    @Test func symmetricAndAcrossTheAntimeridian() {
        let east = Geo.distanceKm(-17.7, 178.0, -13.8, -171.8)
        #expect(abs(east - Geo.distanceKm(-13.8, -171.8, -17.7, 178.0)) < 1e-9)
        #expect(east < 1200, "Fiji to Samoa is short the short way round, got \(east)")
    }
}
