import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
@testable import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// `order`, `keys` and `where` beyond the sizes docs/API.md gives are refused with a 400 that says
/// the bound, before they reach the database (2,000 `order` keys answered 500 and logged a line of
/// 45 KB); up to them, they work.
@Suite("List queries within documented bounds", .ownThreads)
struct QueryBoundsTests {
    static let manyKeys = Array(repeating: "createdAt", count: 2_000).joined(separator: ",")
    static let allKeys = ["objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL", "latitude", "longitude",
        "createdAt", "updatedAt"]

    @Test func theUdacityOrderIsBounded() async throws {
        try await withRouter { client in
            let many = try await send(client, .get, "/v1/StudentLocation?order=\(Self.manyKeys)")
            expectError(many, status: 400, mentioning: "at most 10 keys")
            let twice = try await send(client, .get, "/v1/StudentLocation?order=createdAt,-createdAt")
            expectError(twice, status: 400, mentioning: "createdAt twice")
            let every = Self.allKeys.map { "-" + $0 }.joined(separator: ",")
            #expect(try await send(client, .get, "/v1/StudentLocation?order=\(every)").status == 200)
        }
    }

    @Test func theParseQueryIsBounded() async throws {
        try await withRouter { client in
            func get(_ query: String) async throws -> (Int, [String: Any]) {
                try await client.execute(uri: "/parse/classes/StudentLocation?" + query, method: .get, headers: ShownTextTests.parseHeaders) {
                    (Int($0.status.code), (try? JSONSerialization.jsonObject(with: Data($0.body.readableBytesView))) as? [String: Any] ?? [:])
                }
            }
            func expectRefused(_ query: String, _ words: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let (status, body) = try await get(query)
                #expect(status == 400, "\(query.prefix(80)): \(status)", sourceLocation: sourceLocation)
                #expect(body["code"] as? Int == 102, sourceLocation: sourceLocation)
                #expect((body["error"] as? String ?? "").contains(words), "\(body)", sourceLocation: sourceLocation)
            }
            try await expectRefused("order=\(Self.manyKeys)", "at most 10 keys")
            try await expectRefused("keys=\(Self.manyKeys)", "at most 20 names")
            let values = (0..<101).map { "\"k\($0)\"" }.joined(separator: ",")
            try await expectRefused(Self.encoded(#"{"uniqueKey":{"$in":[\#(values)]}}"#), "at most 100 values")
            // Three comparisons on each of seven columns: 21 conditions, each key once (a key given
            // twice is one key: JSON objects keep the last).
            let conditions = ["objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL", "latitude"].map {
                $0 == "latitude" ? #""latitude":{"$ne":1,"$gt":-90,"$lt":90}"# : #""\#($0)":{"$ne":"x","$gt":"a","$lt":"z"}"#
            }
            try await expectRefused(Self.encoded("{\(conditions.joined(separator: ","))}"), "more than 20 conditions")
            let long = #"{"firstName":""# + String(repeating: "a", count: 9_000) + #""}"#
            try await expectRefused(Self.encoded(long), "limited to 8192 bytes")

            // At the bounds, answered.
            let hundred = (0..<100).map { "\"k\($0)\"" }.joined(separator: ",")
            #expect(try await get(Self.encoded(#"{"uniqueKey":{"$in":[\#(hundred)]}}"#)).0 == 200)
            #expect(try await get("order=" + Self.allKeys.joined(separator: ",") + "&keys=" + Self.allKeys.joined(separator: ",")).0 == 200)
        }
    }

    /// `skip` and `limit` out of their range say the range and what was given, on both dialects of a
    /// real server (issue 39: `skip=2147483648`, a whole number, was told "must be a whole number, 0
    /// or more"); text that is no number is described, not repeated.
    @Test func skipAndLimitSayTheirRangeAndWhatWasGiven() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let refused: [(String, String)] = [
            ("skip=2147483648", "skip must be a whole number between 0 and 2147483647, not 2147483648"),
            ("skip=-1", "skip must be a whole number between 0 and 2147483647, not -1"),
            ("skip=1.5", "skip must be a whole number between 0 and 2147483647, not 1.5"),
            ("limit=1001", "limit must be a whole number between 0 and 1000, not 1001"),
            ("limit=-1", "limit must be a whole number between 0 and 1000, not -1"),
            ("limit=1.5", "limit must be a whole number between 0 and 1000, not 1.5"),
            ("limit=", "limit must be a whole number between 0 and 1000, not nothing"),
            ("limit=%1B%5B2J", "limit must be a whole number between 0 and 1000, not text that is no number"),
        ]
        for (query, message) in refused {
            let udacity = try await ServerHTTP.send(.GET, fixture.baseURL + "/StudentLocation?" + query)
            #expect(udacity.status == 400, "\(query): \(udacity.body)")
            #expect(udacity.json["error"] as? String == message + ".", "\(query): \(udacity.body)")
            #expect(udacity.json["status"] as? Int == 400, "the API's error shape: \(udacity.body)")
            let parse = try await ServerHTTP.send(.GET, root + "/parse/classes/StudentLocation?" + query, headers: ServerHTTP.parseHeaders())
            #expect(parse.status == 400, "\(query): \(parse.body)")
            #expect(parse.json["code"] as? Int == 102, "\(parse.body)")
            #expect(parse.json["error"] as? String == "invalid query: " + message, "\(query): \(parse.body)")
        }
        for query in ["skip=2147483647", "skip=0&limit=0", "limit=1000"] {
            #expect(try await ServerHTTP.send(.GET, fixture.baseURL + "/StudentLocation?" + query).status == 200, "\(query)")
            #expect(
                try await ServerHTTP.send(.GET, root + "/parse/classes/StudentLocation?" + query, headers: ServerHTTP.parseHeaders()).status == 200,
                "\(query)")
        }
    }

    static func encoded(_ whereJSON: String) -> String {
        "where=" + whereJSON.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    private func withRouter(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await TestStorage.with { storage in
            let router = buildRouter(configuration: ServerConfiguration(openWrites: true), storage: storage)
            try await Application(router: router).test(.router) { client in try await body(client) }
        }
    }
}
