import Foundation
import GeocoderQuerySet
import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// The offline geocoder against the hand-made query set, with the issue's targets as the bar.
@Suite("Offline geocoder: the query set", .ownThreads)
struct QuerySetAccuracyTests {
    static func querySet() throws -> GeocoderQuerySet {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(
            contentsOf: root.appendingPathComponent("Benchmarks/geocoder/queries.tsv"), encoding: .utf8)
        return try GeocoderQuerySet(tsv: text)
    }

    @Test func atLeast95PercentOfPlacesAreRightAndAllJunkIsRejected() async throws {
        let set = try Self.querySet()
        let geocoder = OfflineGeocoder()
        await OfflineGeocoder.load()
        var places = 0
        var rightPlaces = 0
        var wrong: [String] = []
        var junkAccepted: [String] = []
        for query in set.queries {
            let best = try await geocoder.geocode(query.text, limit: 1).first
            let right = GeocoderQuerySet.isCorrect(best, for: query.expectation)
            if case .junk = query.expectation {
                if !right { junkAccepted.append("\(query.text.debugDescription) → \(best?.name ?? "")") }
                continue
            }
            places += 1
            if right {
                rightPlaces += 1
            } else {
                wrong.append(
                    "\(query.text.debugDescription) → \(best.map { "\($0.name), \($0.countryCode)" } ?? "nothing")")
            }
        }
        #expect(set.queries.count >= 200)
        #expect(Double(rightPlaces) >= 0.95 * Double(places), "wrong: \(wrong)")
        #expect(junkAccepted.isEmpty, "junk answered: \(junkAccepted)")
    }

    @Test func queriesCoverEveryKind() throws {
        let set = try Self.querySet()
        var kinds: [String: Int] = [:]
        for query in set.queries {
            kinds[query.expectation.kind, default: 0] += 1
        }
        #expect(kinds["locality", default: 0] >= 100)
        #expect(kinds["region", default: 0] >= 10)
        #expect(kinds["country", default: 0] >= 10)
        #expect(kinds["junk", default: 0] >= 20)
    }

    @Test func judgingUsesDistanceAndCountry() {
        let duisburg = GeocodeResult(
            name: "Duisburg", admin1: "North Rhine-Westphalia", country: "Germany", countryCode: "DE",
            latitude: 51.43247, longitude: 6.76516, precision: "locality", score: 0.9)
        #expect(
            GeocoderQuerySet.isCorrect(
                duisburg, for: .locality(countryCode: "DE", latitude: 51.4344, longitude: 6.7623)))
        // Düsseldorf is 23 km away: inside the tolerance. Essen (about 19 km) too; Cologne (about 55 km) not.
        #expect(
            !GeocoderQuerySet.isCorrect(
                duisburg, for: .locality(countryCode: "DE", latitude: 50.9375, longitude: 6.9603)))
        #expect(
            !GeocoderQuerySet.isCorrect(
                duisburg, for: .locality(countryCode: "NL", latitude: 51.4344, longitude: 6.7623)))
        #expect(!GeocoderQuerySet.isCorrect(duisburg, for: .junk))
        #expect(GeocoderQuerySet.isCorrect(nil, for: .junk))
        #expect(abs(Geo.distanceKm(48.8566, 2.3522, 51.5074, -0.1278) - 343.5) < 2)
    }
}
