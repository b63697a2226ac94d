import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OnTheMapModels

/// Plain HTTP calls to a running server, for tests that need no transcript.
enum ServerHTTP {
    struct Reply: Sendable {
        var status: Int
        var body: String
        var headers: HTTPHeaders

        /// The JSON body, after the XSSI prefix if any.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(XSSIPrefix.strip(Array(body.utf8))))) as? [String: Any] ?? [:]
        }
    }

    /// A client that opens as many connections as requests are sent at once (the shared one opens 8 per
    /// host and queues the rest, which would count as the server's time in a test that times answers).
    static let wide = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(connectionPool: .init(idleTimeout: .seconds(10), concurrentHTTP1ConnectionsPerHostSoftLimit: 1_000)))

    static func send(
        _ method: HTTPMethod, _ url: String, body: String? = nil, headers: [(String, String)] = [],
        client: HTTPClient = .shared
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return Reply(status: Int(response.status.code), body: String(buffer: bytes), headers: response.headers)
    }

    /// Logs in and returns (account key, session id).
    static func login(_ baseURL: String, email: String, password: String) async throws -> (key: String, session: String) {
        let reply = try await send(
            .POST, baseURL + "/session", body: #"{"udacity":{"username":"\#(email)","password":"\#(password)"}}"#)
        guard reply.status == 200, let account = reply.json["account"] as? [String: Any],
            let key = account["key"] as? String, let session = (reply.json["session"] as? [String: Any])?["id"] as? String
        else { throw LoginFailed(reply: reply.body) }
        return (key, session)
    }

    struct LoginFailed: Error { var reply: String }

    /// The headers of a Parse-dialect request: the application keys the public On The Map clients
    /// send, and a session token when given.
    static func parseHeaders(session: String? = nil) -> [(String, String)] {
        [
            ("X-Parse-Application-Id", "QrX47CA9cyuGewLdsL7o5Eb8iug6Em8ye0dnAbIr"),
            ("X-Parse-REST-API-Key", "QuWThTdiRmTux3YaDseUSEpUKo7aBYM737yKd4gY"),
        ] + (session.map { [("X-Parse-Session-Token", $0)] } ?? [])
    }

    /// A valid pin body for an account (the JSON of `StudentLocationDraft.graceInParis`, with its key).
    static func pin(_ key: String, mapString: String = "Paris, France", latitude: Double = 48.85) -> String {
        #"{"uniqueKey":"\#(key)","firstName":"Grace","lastName":"Hopper","mapString":"\#(mapString)","mediaURL":"https://example.com","latitude":\#(latitude),"longitude":2.35}"#
    }

    /// The account's pins, through the API.
    static func pins(_ baseURL: String, of key: String) async throws -> [[String: Any]] {
        let reply = try await send(.GET, baseURL + "/StudentLocation?uniqueKey=\(key)&limit=1000")
        return reply.json["results"] as? [[String: Any]] ?? []
    }
}
