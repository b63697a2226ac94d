import Foundation
import HummingbirdTesting
import Logging
import OnTheMapClient
import OnTheMapDaemon
import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@Suite("Nominatim provider against a local stand-in", .ownThreads)
struct NominatimGeocoderTests {
    let logger = Logger(label: "test.nominatim")

    @Test func readsNominatimsFormatAndNamesItself() async throws {
        let standIn = NominatimStandIn()
        try await standIn.application().test(.live) { server in
            let geocoder = NominatimGeocoder(baseURL: "http://127.0.0.1:\(try #require(server.port))", logger: logger)
            let results = try await geocoder.geocode("Mountain View", limit: 5)
            #expect(results.count == 2)
            let first = try #require(results.first)
            #expect(first.name == "Mountain View")
            #expect(first.admin1 == "California")
            #expect(first.country == "United States")
            #expect(first.countryCode == "US")
            #expect(abs(first.latitude - 37.3893889) < 1e-9 && abs(first.longitude + 122.0832101) < 1e-9)
            #expect(first.precision == "locality")
            #expect(first.score == 0.6919)
            #expect(try await geocoder.geocode("Bavaria", limit: 1).first?.precision == "region")
            // A label becomes a pin's place: nothing in it acts on a terminal or that the server refuses.
            let hostile = try #require(try await geocoder.geocode("Hostile Lima", limit: 1).first)
            #expect(hostile.label == "Lima\u{FFFD}[31m, Lima Region, Peru", "\(hostile.label.unicodeScalars.map(\.value))")

            let request = try #require(standIn.requests.first)
            #expect(request.query["q"] == "Mountain View")
            #expect(request.query["format"] == "jsonv2")
            #expect(request.query["addressdetails"] == "1")
            #expect(request.query["limit"] == "5")
            #expect(request.userAgent.hasPrefix("onthemapd/"))
            await geocoder.shutdown()
        }
    }

    @Test func atMostOneRequestPerSecondAndRepeatsComeFromTheCache() async throws {
        let standIn = NominatimStandIn()
        try await standIn.application().test(.live) { server in
            let geocoder = NominatimGeocoder(baseURL: "http://127.0.0.1:\(try #require(server.port))", logger: logger)
            // Three different queries at once, then the first again.
            async let a = geocoder.geocode("Mountain View", limit: 5)
            async let b = geocoder.geocode("Bavaria", limit: 5)
            async let c = geocoder.geocode("Stand-in Town", limit: 5)
            _ = try await (a, b, c)
            #expect(try await geocoder.geocode("Mountain View", limit: 5).count == 2)
            let times = standIn.requests.map(\.at).sorted()
            #expect(times.count == 3)
            for (earlier, later) in zip(times, times.dropFirst()) {
                #expect(later - earlier >= .milliseconds(990), "requests \(later - earlier) apart")
            }
            await geocoder.shutdown()
        }
    }

    @Test(arguments: [NominatimStandIn.Mode.serverError, .garbage])
    func failuresFallBackToTheOfflineGazetteer(mode: NominatimStandIn.Mode) async throws {
        let standIn = NominatimStandIn()
        standIn.mode = mode
        try await standIn.application().test(.live) { server in
            let nominatim = NominatimGeocoder(baseURL: "http://127.0.0.1:\(try #require(server.port))", logger: logger)
            let geocoder = FallbackGeocoder(primary: nominatim, fallback: OfflineGeocoder(), logger: logger)
            let results = try await geocoder.geocode("Duisburg, Germany", limit: 1)
            #expect(results.first?.name == "Duisburg")
            #expect(standIn.requests.count == 1)
            // Without the fallback the failure is reported, not hidden.
            await #expect(throws: GeocoderError.self) { try await nominatim.geocode("Essen, Germany", limit: 1) }
            await nominatim.shutdown()
        }
    }

    @Test func anUnreachableServerIsAnErrorOrTheFallback() async throws {
        let refusing = try RefusingPort()
        let nominatim = NominatimGeocoder(baseURL: "http://127.0.0.1:\(refusing.port)", logger: logger)
        defer { withExtendedLifetime(refusing) {} }
        let error = await #expect(throws: GeocoderError.self) { try await nominatim.geocode("Duisburg", limit: 1) }
        #expect(error?.kind == .unreachable)
        let geocoder = FallbackGeocoder(primary: nominatim, fallback: OfflineGeocoder(), logger: logger)
        #expect(try await geocoder.geocode("Duisburg", limit: 1).first?.countryCode == "DE")
        await nominatim.shutdown()
    }

    @Test func theDaemonAsksNominatimWhenConfigured() async throws {
        let standIn = NominatimStandIn()
        try await standIn.application().test(.live) { server in
            let url = "http://127.0.0.1:\(try #require(server.port))"
            // No API server at all: geocoding needs no login.
            let daemon = try DaemonProcess(
                apiURL: "http://127.0.0.1:1/v1", arguments: ["--geocoder", "nominatim", "--nominatim-url", url])
            defer { daemon.tearDown() }
            let connection = try RPCConnection(path: daemon.socketPath, timeout: .seconds(20))
            let answer = try connection.call("geocode", params: .object([("query", .string("Stand-in Town"))])).get()
            #expect(firstResult(answer)?["name"] == .string("Stand-in Town"))
            #expect(firstResult(answer)?["countryCode"] == .string("TL"))

            // Failing, it falls back to the gazetteer by default...
            standIn.mode = .serverError
            let fallback = try connection.call("geocode", params: .object([("query", .string("Duisburg, Germany"))]))
                .get()
            #expect(firstResult(fallback)?["name"] == .string("Duisburg"))
            #expect(eventually { daemon.log.contains("geocoder failed") })

            // ...and reports the failure when told not to.
            let strict = try DaemonProcess(
                apiURL: "http://127.0.0.1:1/v1",
                arguments: ["--geocoder", "nominatim", "--nominatim-url", url, "--geocoder-fallback", "none"])
            defer { strict.tearDown() }
            let failure = try RPCConnection(path: strict.socketPath, timeout: .seconds(20))
                .call("geocode", params: .object([("query", .string("Essen, Germany"))]))
            guard case .failure(let error) = failure else {
                Issue.record("expected an error, got \(failure)")
                return
            }
            #expect(error.code == RPCError.upstreamErrorCode)
            #expect(error.isRetryable)
        }
    }
}

private func firstResult(_ answer: WireJSON) -> WireJSON? {
    guard case .array(let results)? = answer["results"] else { return nil }
    return results.first
}
