import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import OnTheMapModels
@testable import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// Bad input to the server gets a 4xx `{"status","error"}` body and changes nothing.
@Suite("Bad input to the server", .ownThreads)
struct BadInputTests {
    nonisolated(unsafe) static let validPin: [String: Any] = [
        "uniqueKey": "42", "firstName": "Ada", "lastName": "Lovelace", "mapString": "London, UK",
        "mediaURL": "https://example.com/ada", "latitude": 51.5074, "longitude": -0.1278,
    ]
    static let stringFields = ["uniqueKey", "firstName", "lastName", "mapString", "mediaURL"]
    static let allFields = stringFields + ["latitude", "longitude"]

    /// An app on an in-memory database with writes open, holding one pin; runs `body` with its id.
    private func withServer(_ body: @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        try await TestStorage.with { storage in
        let router = buildRouter(
            configuration: ServerConfiguration(openWrites: true, maxBodyBytes: 16 * 1024), storage: storage)
        try await Application(router: router).test(.router) { client in
            let created = try await send(client, .post, "/v1/StudentLocation", json: Self.validPin)
            try #require(created.status == 201)
            let objectId = try #require(created.json["objectId"] as? String)
            try await body(client, objectId)
            // Whatever happened, the one pin is still there, unchanged.
            let list = try await send(client, .get, "/v1/StudentLocation")
            let results = try #require(list.json["results"] as? [[String: Any]])
            #expect(results.count == 1)
            for (field, value) in Self.validPin {
                #expect("\(results[0][field] ?? "missing")" == "\(value)", "\(field) changed")
            }
        }
        }
    }

    @Test(arguments: ["", "{", "not json", "[]", "null", "\"text\"", "{\"uniqueKey\":\"1\",}", "{\"a\":1}{\"b\":2}"])
    func malformedBodies(body: String) async throws {
        try await withServer { client, objectId in
            for (method, path) in [(HTTPRequest.Method.post, "/v1/StudentLocation"), (.put, "/v1/StudentLocation/\(objectId)"), (.post, "/v1/session")] {
                let reply = try await send(client, method, path, bytes: Array(body.utf8))
                expectError(reply, status: 400)
            }
        }
    }

    @Test(arguments: allFields)
    func wrongTypesAndMissingFields(field: String) async throws {
        try await withServer { client, objectId in
            let wrongValues: [Any] = field == "latitude" || field == "longitude"
                ? ["12.5", NSNull(), [1.0], ["lat": 1.0], true] : [12, NSNull(), ["a"], ["k": "v"], false]
            for wrong in wrongValues {
                var pin = Self.validPin
                pin[field] = wrong
                for (method, path) in [(HTTPRequest.Method.post, "/v1/StudentLocation"), (.put, "/v1/StudentLocation/\(objectId)")] {
                    let reply = try await send(client, method, path, json: pin)
                    expectError(reply, status: 400, mentioning: field)
                }
            }
            var pin = Self.validPin
            pin[field] = nil
            let reply = try await send(client, .post, "/v1/StudentLocation", json: pin)
            expectError(reply, status: 400, mentioning: field)
        }
    }

    @Test(arguments: stringFields)
    func invalidUTF8InEveryStringField(field: String) async throws {
        try await withServer { client, objectId in
            var pin = Self.validPin
            pin[field] = "MARKER"
            var bytes = Array(try JSONSerialization.data(withJSONObject: pin))
            let marker = Array("MARKER".utf8)
            let start = try #require(bytes.firstRange(of: marker))
            bytes.replaceSubrange(start, with: [0x41, 0xFF, 0xFE, 0xC3, 0x28])  // invalid sequences
            for (method, path) in [(HTTPRequest.Method.post, "/v1/StudentLocation"), (.put, "/v1/StudentLocation/\(objectId)")] {
                expectError(try await send(client, method, path, bytes: bytes), status: 400, mentioning: "UTF-8")
            }
            let login = Array(#"{"udacity":{"username":"a\#u{FF}","password":"x"}}"#.utf8).map { $0 == 0xC3 ? 0xFF : $0 }
            expectError(try await send(client, .post, "/v1/session", bytes: login), status: 400)
        }
    }

    @Test func hugeBodiesAreRefusedUnread() async throws {
        try await withServer { client, objectId in
            var pin = Self.validPin
            pin["mapString"] = String(repeating: "x", count: 20 * 1024)
            for (method, path) in [(HTTPRequest.Method.post, "/v1/StudentLocation"), (.put, "/v1/StudentLocation/\(objectId)"), (.post, "/v1/session")] {
                expectError(try await send(client, method, path, json: pin), status: 413)
            }
        }
    }

    @Test(arguments: stringFields)
    func controlCharactersAndOverlongValues(field: String) async throws {
        try await withServer { client, _ in
            var pin = Self.validPin
            pin[field] = "line\nbreak"
            expectError(try await send(client, .post, "/v1/StudentLocation", json: pin), status: 400, mentioning: field)
            pin[field] = "https://example.com/" + String(repeating: "y", count: 3000)
            expectError(try await send(client, .post, "/v1/StudentLocation", json: pin), status: 400, mentioning: field)
        }
    }

    /// A link that would read as another site is refused, and the answer says why: a user name
    /// before the site ("www.linkedin.com@evil.example" opens evil.example).
    @Test func aLinkThatReadsAsAnotherSiteIsRefusedWithItsReason() async throws {
        try await withServer { client, _ in
            var pin = Self.validPin
            pin["mediaURL"] = "https://www.linkedin.com@evil.example/in/gracehopper"
            let reply = try await send(client, .post, "/v1/StudentLocation", json: pin)
            expectError(reply, status: 400, mentioning: "mediaURL must be an http:// or https:// URL: it has a user name before its site")
        }
    }

    @Test func sqlMetacharactersAreJustText() async throws {
        let injection = "x'); DROP TABLE studentLocation; --\" OR 1=1 /*"
        try await withServer { client, _ in
            // In a write that is otherwise invalid: refused, nothing stored.
            var invalid = Self.validPin
            for field in Self.stringFields where field != "mediaURL" { invalid[field] = injection }
            invalid["latitude"] = 123.0
            expectError(try await send(client, .post, "/v1/StudentLocation", json: invalid), status: 400)
            // In queries: matches nothing, orders nothing.
            let query = injection.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let filtered = try await send(client, .get, "/v1/StudentLocation?uniqueKey=\(query)")
            #expect((filtered.json["results"] as? [Any])?.isEmpty == true)
            expectError(try await send(client, .get, "/v1/StudentLocation?order=\(query)"), status: 400)
            expectError(try await send(client, .get, "/v1/StudentLocation?limit=\(query)"), status: 400)
            let login = try await send(client, .post, "/v1/session", json: ["udacity": ["username": injection, "password": injection]])
            expectError(login, status: 403)
            let user = try await send(client, .get, "/v1/users/\(query)")
            expectError(user, status: 404)
        }
    }

    @Test func sqlMetacharactersInAValidPinAreStoredLiterally() async throws {
        let injection = "O'Brien\"; DROP TABLE account; --"
        try await TestStorage.with { storage in
        let router = buildRouter(configuration: ServerConfiguration(openWrites: true), storage: storage)
        try await Application(router: router).test(.router) { client in
            var pin = Self.validPin
            for field in ["uniqueKey", "firstName", "lastName", "mapString"] { pin[field] = injection }
            #expect(try await send(client, .post, "/v1/StudentLocation", json: pin).status == 201)
            let list = try await send(client, .get, "/v1/StudentLocation")
            let stored = try #require((list.json["results"] as? [[String: Any]])?.first)
            for field in ["uniqueKey", "firstName", "lastName", "mapString"] {
                #expect(stored[field] as? String == injection)
            }
        }
        }
    }

    @Test func unknownEndpointsAndMethods() async throws {
        try await withServer { client, _ in
            expectError(try await send(client, .get, "/v1/nothing"), status: 404)
            expectError(try await send(client, .get, "/StudentLocation"), status: 404)
            expectError(try await send(client, .put, "/v1/StudentLocation/NoSuchPin0", json: Self.validPin), status: 404)
        }
    }
}

struct Reply {
    var status: Int
    var raw: String
    var json: [String: Any]
}

func send(
    _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, json: Any? = nil, bytes: [UInt8]? = nil
) async throws -> Reply {
    var body: ByteBuffer?
    if let json { body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)) }
    if let bytes { body = ByteBuffer(bytes: bytes) }
    return try await client.execute(uri: path, method: method, headers: [.contentType: "application/json"], body: body) {
        response in
        let raw = Array(response.body.readableBytesView)
        let json = (try? JSONSerialization.jsonObject(with: Data(XSSIPrefix.strip(raw)))) as? [String: Any] ?? [:]
        return Reply(status: Int(response.status.code), raw: String(decoding: raw, as: UTF8.self), json: json)
    }
}

func expectError(_ reply: Reply, status: Int, mentioning word: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(reply.status == status, "\(reply.raw)", sourceLocation: sourceLocation)
    #expect(reply.json["status"] as? Int == status, "\(reply.raw)", sourceLocation: sourceLocation)
    let message = reply.json["error"] as? String ?? ""
    #expect(!message.isEmpty, sourceLocation: sourceLocation)
    if let word {
        #expect(message.contains(word), "\(message) should mention \(word)", sourceLocation: sourceLocation)
    }
}
