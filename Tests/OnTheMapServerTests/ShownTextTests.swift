import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OnTheMapModels
@testable import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// What no one should store: control characters in names, places and links, bidirectional controls
/// and other invisible format characters in links, an empty first or last name. Refused on both dialects with a message naming the field
/// and why; what people do write (right-to-left names with their marks) is kept.
@Suite("Names, places and links the server refuses", .ownThreads)
struct ShownTextTests {
    nonisolated(unsafe) static let pin: [String: Any] = [
        "uniqueKey": "42", "firstName": "Ada", "lastName": "Lovelace", "mapString": "London, UK",
        "mediaURL": "https://example.com/ada", "latitude": 51.5, "longitude": -0.12,
    ]

    /// (field, value, words the message must hold)
    static let refused: [(String, String, String)] = [
        ("firstName", "Ada\u{1B}[2J", "control character (U+001B)"),
        ("lastName", "Love\u{9B}1A", "control character (U+009B)"),
        ("mapString", "Lima\u{7F}", "control character (U+007F)"),
        ("mapString", "Lima\u{0}, Peru", "control character (U+0000)"),
        ("mediaURL", "https://example.com/\u{202E}gnp.exe", "bidirectional control (U+202E)"),
        ("mediaURL", "https://example.com/\u{2066}x\u{2069}", "bidirectional control (U+2066)"),
        // Invisible: the link would look like https://x.example/ (issue 39).
        ("mediaURL", "https://x.example/\u{200B}", "invisible character (U+200B), which can make a link read as another"),
        ("mediaURL", "https://x.example/a\u{2060}b", "invisible character (U+2060)"),
        ("mediaURL", "https://x\u{200C}.example/", "invisible character (U+200C)"),
        ("mediaURL", "https://\u{FEFF}x.example/", "invisible character (U+FEFF)"),
        // U+0085 is a control character and a line end: a name of it alone was refused as "empty".
        ("lastName", "\u{85}", "contains a control character (U+0085)"),
        ("firstName", " \u{85} ", "contains a control character (U+0085)"),
        ("firstName", "", "is empty"),
        ("lastName", "", "is empty"),
        ("lastName", "   ", "is empty"),
        // One letter as drawn, with 200 marks stacked on it: counted as the 201 code points it is.
        ("firstName", "Z" + String(repeating: "\u{301}", count: 200), "longer than 100 characters"),
        ("mapString", "L" + String(repeating: "\u{303}", count: 300), "longer than 200 characters"),
    ]

    @Test func theUdacityPathsRefuseThemNamingTheField() async throws {
        try await withServer { client, objectId in
            for (field, value, words) in Self.refused {
                var pin = Self.pin
                pin[field] = value
                for (method, path) in [(HTTPRequest.Method.post, "/v1/StudentLocation"), (.put, "/v1/StudentLocation/\(objectId)")] {
                    let reply = try await send(client, method, path, json: pin)
                    expectError(reply, status: 400, mentioning: "The field \(field) ")
                    #expect((reply.json["error"] as? String ?? "").contains(words), "\(field)=\(value.debugDescription): \(reply.raw)")
                }
            }
        }
    }

    @Test func theParsePathsRefuseThemToo() async throws {
        try await withServer { client, objectId in
            for (field, value, words) in Self.refused {
                var pin = Self.pin
                pin[field] = value
                for (method, path) in [(HTTPRequest.Method.post, "/parse/classes/StudentLocation"), (.put, "/1/classes/StudentLocation/\(objectId)")] {
                    let reply = try await client.execute(
                        uri: path, method: method, headers: Self.parseHeaders,
                        body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: pin))
                    ) { response in
                        (Int(response.status.code), try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
                    }
                    #expect(reply.0 == 400, "\(field)=\(value.debugDescription)")
                    #expect(reply.1?["code"] as? Int == 142)
                    let message = reply.1?["error"] as? String ?? ""
                    #expect(message.contains(field) && message.contains(words), "\(message)")
                }
            }
        }
    }

    /// Right-to-left names carry bidirectional marks, and places may too: those are text, shown
    /// neutralised by whoever prints them. Only links refuse them.
    @Test func rightToLeftNamesAndPlacesAreKept() async throws {
        try await withServer { client, _ in
            var pin = Self.pin
            pin["uniqueKey"] = "43"
            pin["firstName"] = "\u{200F}أدا"
            pin["lastName"] = "\u{202B}לאבלייס\u{202C}"
            pin["mapString"] = "\u{2067}תל אביב\u{2069}, Israel"
            let reply = try await send(client, .post, "/v1/StudentLocation", json: pin)
            #expect(reply.status == 201, "\(reply.raw)")
            // Names keep the joiners: a Persian name with its ZWNJ, an emoji sequence with its ZWJ.
            pin["uniqueKey"] = "44"
            pin["firstName"] = "نی\u{200C}لوفر"
            pin["lastName"] = "Coder 👩\u{200D}💻"
            let joined = try await send(client, .post, "/v1/StudentLocation", json: pin)
            #expect(joined.status == 201, "\(joined.raw)")
        }
    }

    @Test func theRuleItself() {
        #expect(ShownText.problem(in: "Grace Hopper", kind: .name) == nil)
        #expect(ShownText.problem(in: "https://example.com/a?b=c#d", kind: .link) == nil)
        #expect(ShownText.problem(in: "\u{200F}Tel Aviv", kind: .place) == nil)
        #expect(ShownText.problem(in: "x\u{200F}", kind: .link)?.contains("U+200F") == true)
        #expect(ShownText.problem(in: "tab\there", kind: .place)?.contains("U+0009") == true)
        #expect(ShownText.problem(in: "Lima\u{2028}x", kind: .place)?.contains("line separator (U+2028)") == true)
        #expect(ShownText.problem(inName: "A\u{2029}B")?.contains("U+2029") == true)
        #expect(ShownText.problem(inName: " \t") != nil)
        #expect(ShownText.problem(inName: "Ada") == nil)
        #expect(ShownText.problem(inName: "\u{85}")?.contains("control character (U+0085)") == true)
        #expect(ShownText.problem(in: "https://x.example/\u{AD}", kind: .link)?.contains("U+00AD") == true)
        #expect(ShownText.problem(in: "Zero\u{200B}Width", kind: .place) == nil)
    }

    static let parseHeaders: HTTPFields = [
        .contentType: "application/json",
        HTTPField.Name("X-Parse-Application-Id")!: ParseKeys.udacityApplicationID,
        HTTPField.Name("X-Parse-REST-API-Key")!: ParseKeys.udacityRESTAPIKey,
    ]

    /// A router on the suite's storage with writes open, holding one valid pin; `body` gets its id.
    /// Whatever `body` sent, that pin is unchanged after it.
    private func withServer(_ body: @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        try await TestStorage.with { storage in
            let router = buildRouter(configuration: ServerConfiguration(openWrites: true), storage: storage)
            try await Application(router: router).test(.router) { client in
                let created = try await send(client, .post, "/v1/StudentLocation", json: Self.pin)
                let objectId = try #require(created.json["objectId"] as? String, "\(created.raw)")
                try await body(client, objectId)
                let list = try await send(client, .get, "/v1/StudentLocation?uniqueKey=42")
                let stored = try #require((list.json["results"] as? [[String: Any]])?.first)
                for field in ["firstName", "lastName", "mapString", "mediaURL"] {
                    #expect(stored[field] as? String == Self.pin[field] as? String, "\(field) changed: \(stored)")
                }
            }
        }
    }
}
