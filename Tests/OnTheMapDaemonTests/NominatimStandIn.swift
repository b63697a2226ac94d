import Foundation
import Hummingbird
import Synchronization

/// A local server speaking Nominatim's search API (`/search?q=…&format=jsonv2&addressdetails=1`),
/// recording what it was asked, and able to fail on demand.
final class NominatimStandIn: Sendable {
    enum Mode: Sendable, Hashable {
        case answer, serverError, garbage
    }

    struct Request: Sendable {
        var query: [String: String]
        var userAgent: String
        var at: ContinuousClock.Instant
    }

    private let state = Mutex<(mode: Mode, requests: [Request])>((.answer, []))

    var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    var requests: [Request] { state.withLock { $0.requests } }

    /// Mountain View answers as the public service does (two of its results, trimmed); "Stand-in
    /// Town" is a place only this server knows, to tell its answers from the gazetteer's.
    static let places: [String: String] = [
        "mountain view": #"""
        [{"place_id":297953339,"licence":"Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright","osm_type":"relation","osm_id":2159897,"lat":"37.3893889","lon":"-122.0832101","category":"boundary","type":"administrative","place_rank":16,"importance":0.6919,"addresstype":"city","name":"Mountain View","display_name":"Mountain View, Santa Clara County, California, United States","address":{"city":"Mountain View","county":"Santa Clara County","state":"California","ISO3166-2-lvl4":"US-CA","country":"United States","country_code":"us"},"boundingbox":["37.3557","37.4698","-122.1166","-122.0336"]},
         {"place_id":12345,"lat":"35.0","lon":"-92.1","category":"place","type":"town","place_rank":16,"importance":0.31,"addresstype":"town","name":"Mountain View","display_name":"Mountain View, Stone County, Arkansas, United States","address":{"town":"Mountain View","state":"Arkansas","country":"United States","country_code":"us"}}]
        """#,
        "stand-in town": #"""
        [{"place_id":1,"lat":"10.5","lon":"20.25","place_rank":16,"importance":0.5,"addresstype":"town","name":"Stand-in Town","display_name":"Stand-in Town, Test Region, Testland","address":{"town":"Stand-in Town","state":"Test Region","country":"Testland","country_code":"tl"}}]
        """#,
        // A hostile (or broken) server's names: an escape sequence, a line break, an override.
        "hostile lima": #"""
        [{"place_id":3,"lat":"-12.05","lon":"-77.04","place_rank":16,"importance":0.6,"addresstype":"city","name":"Lima\u001b[31m","display_name":"Lima","address":{"city":"Lima","state":"Lima\u2028Region","country":"Per\u202eu","country_code":"pe"}}]
        """#,
        "bavaria": #"""
        [{"place_id":2,"lat":"48.9","lon":"11.4","place_rank":8,"importance":0.75,"addresstype":"state","name":"Bavaria","display_name":"Bavaria, Germany","address":{"state":"Bavaria","country":"Germany","country_code":"de"}}]
        """#,
    ]

    func application() -> some ApplicationProtocol {
        let router = Router()
        router.get("search") { [self] request, _ -> Response in
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            let record = Request(query: query, userAgent: request.headers[.userAgent] ?? "", at: .now)
            let mode = state.withLock { state in
                state.requests.append(record)
                return state.mode
            }
            switch mode {
            case .serverError:
                return Response(
                    status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "<html>overloaded</html>"))
                )
            case .garbage:
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>captive portal</html>")))
            case .answer:
                let body = Self.places[(query["q"] ?? "").lowercased()] ?? "[]"
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: body)))
            }
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}
