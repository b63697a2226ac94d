import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapServer

/// A limit, once reached, is kept in memory: the requests it refuses are answered without a write
/// (each refused place lookup used to write its count: the WAL grew from 45 KB to 4.1 MB in 20 s of
/// flooding). Counted by what the database holds for the subject after the flood.
@Suite("Refused attempts write nothing", .ownThreads)
struct RefusedAttemptsTests {
    @Test func refusedPlaceLookupsAreNotCounted() async throws {
        try await withRouter { client, storage, key in
            let headers: HTTPFields = [HTTPField.Name(OnTheMapHeaders.session)!: try await GeocodeEndpointTests.logIn(client)]
            for _ in 0...GeocodeController.perMinute + 200 {
                try await client.execute(uri: "/v1/geocode?q=Oslo", method: .get, headers: headers) { _ in }
            }
            try await client.execute(uri: "/v1/geocode?q=Oslo", method: .get, headers: headers) { response in
                #expect(response.status == .tooManyRequests)
                #expect((1...60).contains(Int(response.headers[.retryAfter] ?? "") ?? 0))
            }
            // The 30 allowed and the first refused one were counted; the 201 after it were not.
            #expect(try await Self.stored("geocode:\(key)", in: storage) == GeocodeController.perMinute + 1)
        }
    }

    @Test func refusedLoginsAreNotCounted() async throws {
        try await withRouter { client, storage, _ in
            let wrong = ByteBuffer(string: #"{"udacity":{"username":"ada@example.com","password":"not-it"}}"#)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<50 {
                statuses.append(
                    try await client.execute(uri: "/v1/session", method: .post, headers: [.contentType: "application/json"], body: wrong) {
                        $0.status
                    })
            }
            #expect(statuses.prefix(5).allSatisfy { $0 == .forbidden } && statuses.dropFirst(5).allSatisfy { $0 == .tooManyRequests }, "\(statuses)")
            #expect(try await Self.stored(LoginRateLimiter.subject(account: "ada@example.com"), in: storage) == 6)
            #expect(try await Self.stored(LoginRateLimiter.sustainedSubject(account: "ada@example.com"), in: storage) == 5)
        }
    }

    /// A login name longer than any email is refused before it is counted: each refusal would write
    /// the name (50 KB here) twice to the database.
    @Test func aLoginNameNoEmailCouldBeIsNotCounted() async throws {
        try await withRouter { client, storage, _ in
            let name = String(repeating: "u", count: 50_000) + "@example.com"
            let body = ByteBuffer(string: #"{"udacity":{"username":""# + name + #"","password":"not-it"}}"#)
            try await client.execute(uri: "/v1/session", method: .post, headers: [.contentType: "application/json"], body: body) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("longer than an email address can be"))
            }
            #expect(try await Self.stored(LoginRateLimiter.subject(account: name), in: storage) == 0)
            // The longest an email can be is still looked up (and refused as unknown).
            let longest = String(repeating: "u", count: ShownText.maxEmailBytes - "@example.com".count) + "@example.com"
            let allowed = ByteBuffer(string: #"{"udacity":{"username":""# + longest + #"","password":"not-it"}}"#)
            try await client.execute(uri: "/v1/session", method: .post, headers: [.contentType: "application/json"], body: allowed) {
                #expect($0.status == .forbidden)
            }
        }
    }

    /// The attempts the database holds for `subject` now (counting one more, under a limit no test
    /// reaches, and taking it off).
    static func stored(_ subject: String, in storage: any ServerStorage) async throws -> Int {
        let counter = AttemptCounter(subject: subject, window: .seconds(3600), limit: 1_000_000)
        return try await storage.countAttempts([counter], now: Date()).first!.attempts - 1
    }

    private func withRouter(_ body: @Sendable (any TestClientProtocol, any ServerStorage, String) async throws -> Void) async throws {
        try await TestStorage.with { storage in
            let ada = try await storage.createAccount(
                NewAccount(
                    email: "ada@example.com", passwordHash: try await PasswordHasher(cost: 4).hash("engine-1843"),
                    firstName: "Ada", lastName: "Lovelace"))
            let router = buildRouter(configuration: ServerConfiguration(bcryptCost: 4), storage: storage)
            try await Application(router: router).test(.router) { client in try await body(client, storage, ada.key) }
        }
    }
}
