import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// A stand-in for Graph API `/me`: one token is valid.
private func graphStandIn() -> some ApplicationProtocol {
    let router = Router()
    router.get("me") { request, _ -> Response in
        guard request.uri.queryParameters.get("access_token") == "good-token",
            request.uri.queryParameters.get("fields")?.contains("first_name") == true
        else {
            return Response(
                status: .badRequest,
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"message":"Invalid OAuth access token."}}"#)))
        }
        return Response(
            status: .ok,
            body: .init(byteBuffer: ByteBuffer(string: #"{"id":"10153","first_name":"Face","last_name":"Book"}"#)))
    }
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
}

@Suite("Facebook login through a token-verification URL", .ownThreads)
struct FacebookLoginTests {
    @Test func validTokenLogsInAndCreatesTheAccountOnce() async throws {
        try await graphStandIn().test(.live) { graph in
            let port = try #require(graph.port)
            let bed = try APITestBed(serverArguments: ["--facebook-verify-url", "http://127.0.0.1:\(port)/me"])
            let first = try await bed.client.login(.facebook(accessToken: "good-token"))
            let second = try await bed.client.login(.facebook(accessToken: "good-token"))
            #expect(first.accountKey == second.accountKey)
            #expect(first.sessionID != second.sessionID)
            let profile = try await bed.client.user(key: first.accountKey)
            #expect(profile.firstName == "Face")
            #expect(profile.lastName == "Book")

            let error = await apiError { _ = try await bed.client.login(.facebook(accessToken: "stolen-token")) }
            #expect(error?.kind == .invalidCredentials)
            #expect(error?.message == "The Facebook access token was rejected.")
            try await bed.close()
        }
    }
}
