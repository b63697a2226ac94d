import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OnTheMapModels
@testable import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// What the API's answers say about themselves and what it takes: `Cache-Control: no-store` on
/// every API answer, a `Secure` XSRF cookie behind TLS, and bodies only as JSON.
@Suite("The API's headers", .ownThreads)
struct APIHeadersTests {
    static let login = #"{"udacity":{"username":"ada@example.com","password":"engine-1843"}}"#

    @Test func everyAPIAnswerIsNoStore() async throws {
        try await withRouter { client in
            let session = try await GeocodeEndpointTests.logIn(client)
            let sessionHeader: HTTPFields = [HTTPField.Name(OnTheMapHeaders.session)!: session]
            var etag = ""
            let requests: [(String, HTTPRequest.Method, String, HTTPFields)] = [
                ("the list", .get, "/v1/StudentLocation?limit=5", [:]),
                ("the session", .get, "/v1/session", sessionHeader),
                ("no session", .get, "/v1/session", [:]),
                ("a user", .get, "/v1/users/nobody", [:]),
                ("no such endpoint", .get, "/v1/nothing", [:]),
                ("a Parse list", .get, "/parse/classes/StudentLocation", ShownTextTests.parseHeaders),
                ("a Parse path with wrong keys", .get, "/1/classes/StudentLocation", [:]),
            ]
            for (name, method, path, headers) in requests {
                try await client.execute(uri: path, method: method, headers: headers) { response in
                    #expect(response.headers[.cacheControl] == "no-store", "\(name): \(response.status) \(response.headers)")
                    if path.hasPrefix("/v1/StudentLocation") { etag = response.headers[.eTag] ?? "" }
                }
            }
            // A 304 too; a conditional GET still works without any cache keeping the body.
            try await client.execute(uri: "/v1/StudentLocation?limit=5", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.headers[.cacheControl] == "no-store")
            }
            // The web page's files keep their own caching: the page itself, and its style sheet at the
            // versioned address the page names.
            let page = try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] != "no-store", "\(response.headers)")
                return String(buffer: response.body)
            }
            let styleSheet = try #require(page.firstMatch(of: /href="(assets\/[^"]+\/app\.css)"/)?.output.1)
            try await client.execute(uri: "/" + styleSheet, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl]?.contains("immutable") == true, "\(response.headers)")
            }
        }
    }

    @Test func theXSRFCookieIsSecureBehindTLS() async throws {
        try await withRouter { client in
            func cookie(_ headers: HTTPFields) async throws -> (String, String) {
                var fields = headers
                fields[.contentType] = "application/json"
                return try await client.execute(
                    uri: "/v1/session", method: .post, headers: fields, body: ByteBuffer(string: Self.login)
                ) { response in
                    #expect(response.status == .ok)
                    let cookie = response.headers[.setCookie] ?? ""
                    return (cookie, String(cookie.split(separator: ";").first?.split(separator: "=").last ?? ""))
                }
            }
            let (plain, plainToken) = try await cookie([:])
            #expect(plain.hasPrefix("XSRF-TOKEN=") && !plain.contains("Secure"), "\(plain)")
            let (behindTLS, token) = try await cookie([HTTPField.Name("X-Forwarded-Proto")!: "https"])
            #expect(behindTLS.hasSuffix("; Path=/; SameSite=Strict; Secure"), "\(behindTLS)")
            // Logging out behind TLS clears it the same way.
            try await client.execute(
                uri: "/v1/session", method: .delete,
                headers: [HTTPField.Name(OnTheMapHeaders.xsrfToken)!: token, HTTPField.Name("X-Forwarded-Proto")!: "https"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie] == "XSRF-TOKEN=; Max-Age=0; Path=/; SameSite=Strict; Secure")
            }
            #expect(!plainToken.isEmpty)
        }
    }

    /// A browser sends `text/plain` and form bodies from any page without asking first (no CORS
    /// preflight): refused unread, 415, saying what to send. JSON, with or without a charset, and a
    /// body sent with no type at all are read.
    @Test func bodiesAreTakenOnlyAsJSON() async throws {
        try await withRouter { client in
            let pin = #"{"uniqueKey":"42","firstName":"Ada","lastName":"Lovelace","mapString":"London","mediaURL":"https://example.com","latitude":1,"longitude":2}"#
            for type in ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                for (path, body, parse) in [
                    ("/v1/session", Self.login, false), ("/v1/StudentLocation", pin, false),
                    ("/parse/classes/StudentLocation", pin, true), ("/1/login", #"{"username":"ada@example.com","password":"engine-1843"}"#, true),
                ] {
                    var headers: HTTPFields = parse ? ShownTextTests.parseHeaders : [:]
                    headers[.contentType] = type
                    try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
                        #expect(response.status == .unsupportedMediaType, "\(type) to \(path): \(response.status)")
                        let text = String(buffer: response.body)
                        #expect(text.contains("Content-Type: application/json"), "\(text)")
                        if parse { #expect(text.contains(#""code":107"#), "\(text)") }
                    }
                }
            }
            for type in ["application/json", "application/json; charset=utf-8", "Application/JSON", nil] {
                var headers: HTTPFields = [:]
                if let type { headers[.contentType] = type }
                try await client.execute(uri: "/v1/StudentLocation", method: .post, headers: headers, body: ByteBuffer(string: pin)) { response in
                    #expect(response.status == .created, "\(type ?? "no type"): \(String(buffer: response.body))")
                }
            }
        }
    }

    /// A router on the suite's storage, writes open, with ada@example.com's account.
    private func withRouter(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await TestStorage.with { storage in
            _ = try await storage.createAccount(
                NewAccount(
                    email: "ada@example.com", passwordHash: try await PasswordHasher(cost: 4).hash("engine-1843"),
                    firstName: "Ada", lastName: "Lovelace"))
            let router = buildRouter(configuration: ServerConfiguration(openWrites: true, bcryptCost: 4), storage: storage)
            try await Application(router: router).test(.router) { client in try await body(client) }
        }
    }
}
