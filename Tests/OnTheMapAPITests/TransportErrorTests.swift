import Foundation
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
@testable import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// Fakes for what the real server never does: fail, answer garbage, or hang.
private func brokenUpstream() -> some ApplicationProtocol {
    let router = Router()
    router.get("v1/StudentLocation") { request, _ -> Response in
        switch request.uri.queryParameters.get("uniqueKey") {
        case "500":
            Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: #"{"status":500,"error":"database on fire"}"#)))
        case "503":
            // The real server's words when its database is out (RequestFailure.unavailableMessage).
            Response(status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(
                string: #"{"status":503,"error":"The database is unavailable; try again in a few seconds."}"#)))
        case "502":
            Response(status: .badGateway, body: .init(byteBuffer: ByteBuffer(string: "<html>Bad Gateway</html>")))
        case "html":
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>captive portal</html>")))
        case "shape":
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"results":{"not":"an array"}}"#)))
        case "huge":
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: " "), count: 3 * 1024 * 1024)))
        case "redirect":
            Response(status: .temporaryRedirect, headers: [.location: "http://127.0.0.1:1/"])
        default:
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"results":[]}"#)))
        }
    }
    // Headers at once, then a byte a second for 5 min: never idle long enough for a read timeout.
    router.get("v1/drip") { _, _ -> Response in
        Response(
            status: .ok,
            body: ResponseBody { writer in
                for _ in 0..<300 {
                    try await writer.write(ByteBuffer(string: " "))
                    try await Task.sleep(for: .seconds(1))
                }
                try await writer.finish(nil)
            })
    }
    router.get("v1/slow") { _, _ -> Response in
        try await Task.sleep(for: .seconds(10))
        return Response(status: .ok)
    }
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
}

@Suite("Errors without a well-behaved server", .ownThreads)
struct TransportErrorTests {
    private func client(port: Int, maxResponseBytes: Int = 1024 * 1024) -> OnTheMapAPIClient {
        OnTheMapAPIClient(configuration: APIConfiguration(
            baseURL: "http://127.0.0.1:\(port)/v1", connectTimeout: .seconds(2), readTimeout: .seconds(2),
            requestTimeout: .seconds(6), maxResponseBytes: maxResponseBytes))
    }

    @Test func serverErrorsAreUpstreamErrors() async throws {
        try await brokenUpstream().test(.live) { upstream in
            let client = client(port: try #require(upstream.port))
            for key in ["500", "502"] {
                let error = await apiError { _ = try await client.studentLocations(StudentLocationQuery(uniqueKey: key)) }
                #expect(error?.kind == .upstreamError)
                #expect(error?.status == Int(key))
                #expect(error?.isRetryable == true)
            }
            let withMessage = await apiError { _ = try await client.studentLocations(StudentLocationQuery(uniqueKey: "500")) }
            #expect(withMessage?.message.contains("database on fire") == true)
            #expect(withMessage?.message.hasSuffix("Try again later.") == true, "our advice, as the server gave none")
            // The server's advice is said once, with one full stop: not "… a few seconds.. Try again later."
            let advised = await apiError { _ = try await client.studentLocations(StudentLocationQuery(uniqueKey: "503")) }
            let said = try #require(advised?.message)
            #expect(said.hasSuffix("The database is unavailable; try again in a few seconds."), "\(said)")
            #expect(!said.contains(".."), "\(said)")
            #expect(!said.lowercased().contains("try again later"), "\(said)")
            try await client.shutdown()
        }
    }

    @Test(arguments: ["html", "shape", "huge", "redirect"])
    func garbageIsAMalformedResponse(key: String) async throws {
        try await brokenUpstream().test(.live) { upstream in
            let client = client(port: try #require(upstream.port))
            let error = await apiError { _ = try await client.studentLocations(StudentLocationQuery(uniqueKey: key)) }
            #expect(error?.kind == .malformedResponse)
            #expect(error?.isRetryable == false)
            try await client.shutdown()
        }
    }

    @Test func refusedConnectionIsUnreachableAtOnce() async throws {
        let refusing = try RefusingPort()
        // A long connect timeout: retrying a refused connection until it passes (AsyncHTTPClient's
        // default) would take 120 s; refused is an answer, known at once. The bound is loose because
        // parallel tests that block the cooperative pool can delay this one's resumption by seconds.
        let client = OnTheMapAPIClient(configuration: APIConfiguration(
            baseURL: "http://127.0.0.1:\(refusing.port)/v1", connectTimeout: .seconds(120), requestTimeout: .seconds(180)))
        let started = ContinuousClock.now
        let error = await apiError { _ = try await client.studentLocations() }
        #expect(error?.kind == .unreachable)
        #expect(error?.message.contains("refused") == true, "\(error?.message ?? "")")
        #expect(error?.isRetryable == true)
        #expect(ContinuousClock.now - started < .seconds(60))
        try await client.shutdown()
        withExtendedLifetime(refusing) {}
    }

    @Test func aDrippingBodyIsCutAtTheRequestTimeout() async throws {
        try await brokenUpstream().test(.live) { upstream in
            let client = client(port: try #require(upstream.port))
            let started = ContinuousClock.now
            let error = await apiError { _ = try await client.send(.GET, "/drip", purpose: .read) }
            #expect(error?.kind == .unreachable)
            #expect(error?.message.contains("did not answer in time") == true, "\(error?.message ?? "")")
            // The request timeout is 6 s; the drip would last 300 s.
            #expect(ContinuousClock.now - started < .seconds(120))
            try await client.shutdown()
        }
    }

    @Test func silentServerTimesOut() async throws {
        try await brokenUpstream().test(.live) { upstream in
            let client = client(port: try #require(upstream.port))
            let started = ContinuousClock.now
            let error = await apiError { _ = try await client.user(key: "x") }  // /v1/users is not routed: answered at once
            #expect(error?.kind == .notFound)
            let slow = await apiError {
                _ = try await client.send(.GET, "/slow", purpose: .read)
            }
            #expect(slow?.kind == .unreachable)
            #expect(slow?.message.contains("did not answer in time") == true, "\(slow?.message ?? "")")
            // Generous: parallel tests share two cores.
            #expect(ContinuousClock.now - started < .seconds(9))
            try await client.shutdown()
        }
    }

    @Test func unresolvableHostIsUnreachable() async throws {
        let client = OnTheMapAPIClient(configuration: APIConfiguration(baseURL: "http://onthemap.invalid/v1", connectTimeout: .seconds(3)))
        let error = await apiError { _ = try await client.studentLocations() }
        #expect(error?.kind == .unreachable)
        try await client.shutdown()
    }
}
