import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapServer

/// `GET /v1/geocode`: the embedded gazetteer for the web page's "Find on map", behind a session and a
/// per-account limit; labels as people write places.
@Suite("GET /v1/geocode", .ownThreads)
struct GeocodeEndpointTests {
    @Test func needsASessionAndAnswersCandidatesWithLabels() async throws {
        try await TestStorage.with { storage in
            let router = buildRouter(configuration: ServerConfiguration(bcryptCost: 4), storage: storage)
            _ = try await storage.createAccount(
                NewAccount(
                    email: "ada@example.com", passwordHash: try await PasswordHasher(cost: 4).hash("engine-1843"),
                    firstName: "Ada", lastName: "Lovelace"))
            try await Application(router: router).test(.router) { client in
                try await client.execute(uri: "/v1/geocode?q=Springfield", method: .get) { response in
                    #expect(response.status == .unauthorized)
                    #expect(String(buffer: response.body).contains("requires a session"))
                }
                let session = try await Self.logIn(client)
                let headers: HTTPFields = [HTTPField.Name(OnTheMapHeaders.session)!: session]
                let answer = try await client.execute(uri: "/v1/geocode?q=Springfield&limit=10", method: .get, headers: headers) {
                    response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/json")
                    return try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
                }
                let results = try #require(answer?["results"] as? [[String: Any]])
                #expect(results.count > 2, "several Springfields")
                let illinois = try #require(results.first { $0["label"] as? String == "Springfield, Illinois, United States" })
                #expect(illinois["country"] as? String == "United States" && illinois["countryCode"] as? String == "US")
                #expect(abs((illinois["latitude"] as? Double ?? 0) - 39.8) < 0.2 && abs((illinois["longitude"] as? Double ?? 0) + 89.64) < 0.2)
                let lima = try await client.execute(uri: "/v1/geocode?q=Lima%2C%20Peru", method: .get, headers: headers) {
                    try JSONSerialization.jsonObject(with: Data($0.body.readableBytesView)) as? [String: Any]
                }
                let limas = (lima?["results"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
                #expect(limas.first == "Lima, Peru", "\(limas)")
                #expect(Set(limas).count == limas.count, "no candidate twice: \(limas)")
                let nowhere = try await client.execute(uri: "/v1/geocode?q=Qxzwvtplk", method: .get, headers: headers) {
                    ($0.status, String(buffer: $0.body))
                }
                #expect(nowhere.0 == .ok && nowhere.1 == #"{"results":[]}"#, "no match is an empty list")
                for bad in ["/v1/geocode", "/v1/geocode?q=%20", "/v1/geocode?q=x&limit=0", "/v1/geocode?q=x&limit=21",
                    "/v1/geocode?q=" + String(repeating: "a", count: 201)] {
                    try await client.execute(uri: bad, method: .get, headers: headers) { response in
                        #expect(response.status == .badRequest, "\(bad)")
                    }
                }
                try await client.execute(uri: "/v1/geocode?q=x&limit=21", method: .get, headers: headers) { response in
                    let said = String(buffer: response.body)
                    #expect(said == #"{"status":400,"error":"limit must be a whole number between 1 and 20, not 21."}"#, "\(said)")
                }
                // A control character pasted with the place is refused, named; a zero-width space
                // parts no word ("Li" U+200B "ma" is still Lima, where it found Morocco).
                try await client.execute(uri: "/v1/geocode?q=Pa%1B%5D0%3Bx%07ris", method: .get, headers: headers) { response in
                    let said = String(buffer: response.body)
                    #expect(said == #"{"status":400,"error":"q holds a control character (U+001B), which no place name has."}"#, "\(said)")
                }
                let zeroWidth = try await client.execute(uri: "/v1/geocode?q=Li%E2%80%8Bma%2C%20Peru", method: .get, headers: headers) {
                    try JSONSerialization.jsonObject(with: Data($0.body.readableBytesView)) as? [String: Any]
                }
                #expect((zeroWidth?["results"] as? [[String: Any]])?.first?["label"] as? String == "Lima, Peru", "\(String(describing: zeroWidth))")
            }
        }
    }

    @Test func anAccountMayLookUpThirtyPlacesAMinute() async throws {
        try await TestStorage.with { storage in
            let router = buildRouter(configuration: ServerConfiguration(bcryptCost: 4), storage: storage)
            _ = try await storage.createAccount(
                NewAccount(
                    email: "ada@example.com", passwordHash: try await PasswordHasher(cost: 4).hash("engine-1843"),
                    firstName: "Ada", lastName: "Lovelace"))
            try await Application(router: router).test(.router) { client in
                let headers: HTTPFields = [HTTPField.Name(OnTheMapHeaders.session)!: try await Self.logIn(client)]
                for attempt in 1...GeocodeController.perMinute {
                    try await client.execute(uri: "/v1/geocode?q=Oslo", method: .get, headers: headers) { response in
                        #expect(response.status == .ok, "lookup \(attempt)")
                    }
                }
                try await client.execute(uri: "/v1/geocode?q=Oslo", method: .get, headers: headers) { response in
                    #expect(response.status == .tooManyRequests)
                    let wait = Int(response.headers[.retryAfter] ?? "") ?? 0
                    #expect((1...60).contains(wait))
                    #expect(String(buffer: response.body).contains("Too many place lookups: try again in \(WaitInWords.describe(seconds: wait)).\""), "\(String(buffer: response.body))")
                }
            }
        }
    }

    /// The labels are `GeocodeResult.label`'s, each once, best first.
    @Test func labelsAreTheOneRuleEachOnce() {
        func place(_ name: String, _ admin1: String, _ country: String, _ precision: String = "locality") -> GeocodeResult {
            GeocodeResult(
                name: name, admin1: admin1, country: country, countryCode: "", latitude: 0, longitude: 0,
                precision: precision, score: 1)
        }
        let found = [
            place("Lima", "Lima", "Peru"), place("Lima", "Lima", "Peru", "region"), place("Lima", "Ohio", "United States"),
            place("Toronto", "Ontario", "Canada"), place("Lima", "Ohio", "United States"),
        ]
        let labels = GeocodePlaces(results: found).results.map(\.label)
        #expect(labels == ["Lima, Peru", "Lima, Ohio, United States", "Toronto, Ontario, Canada"])
        #expect(labels == found.map(\.label).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } })
        #expect(GeocodePlaces(results: found, limit: 2).results.count == 2)
    }

    @Test func theGazetteerIsDroppedOnceLookupsStop() async throws {
        let geocoder = ServerGeocoder(quiet: .seconds(60))
        let start = ContinuousClock.now
        #expect(!geocoder.releaseIfQuiet(now: start + .seconds(3600)), "nothing to drop before a lookup")
        #expect(try await geocoder.places(matching: "Oslo", limit: 1).first?.name == "Oslo")
        let used = ContinuousClock.now
        #expect(!geocoder.releaseIfQuiet(now: used + .seconds(30)), "kept while lookups may follow")
        #expect(geocoder.releaseIfQuiet(now: used + .seconds(61)), "dropped a minute after the last")
        #expect(!geocoder.releaseIfQuiet(now: used + .seconds(120)), "and once")
    }

    /// Logs ada@example.com in through the router; returns the session id.
    static func logIn(_ client: any TestClientProtocol) async throws -> String {
        let body = ByteBuffer(string: #"{"udacity":{"username":"ada@example.com","password":"engine-1843"}}"#)
        return try await client.execute(
            uri: "/v1/session", method: .post, headers: [.contentType: "application/json"], body: body
        ) { response in
            let json = try JSONSerialization.jsonObject(with: Data(XSSIPrefix.strip(Array(response.body.readableBytesView))))
            return try #require(((json as? [String: Any])?["session"] as? [String: Any])?["id"] as? String)
        }
    }
}
