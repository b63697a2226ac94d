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
    router.get("v1/slow") { _, _ -> Response in
        try await Task.sleep(for: .seconds(10))
        return Response(status: .ok)
    }
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
}

@Suite("Errors without a well-behaved server")
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

    @Test func refusedConnectionIsUnreachable() async throws {
        let refusing = try RefusingPort()
        let client = client(port: refusing.port)
        let started = ContinuousClock.now
        let error = await apiError { _ = try await client.studentLocations() }
        #expect(error?.kind == .unreachable)
        #expect(error?.message.contains("refused") == true, "\(error?.message ?? "")")
        #expect(error?.isRetryable == true)
        // AsyncHTTPClient retries a refused connection until the connect timeout (2 s here); the
        // bound is loose because parallel tests can starve this one of CPU.
        #expect(ContinuousClock.now - started < .seconds(30))
        try await client.shutdown()
        withExtendedLifetime(refusing) {}
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
