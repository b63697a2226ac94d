import Foundation
import OnTheMapTestSupport
import Testing

@testable import OnTheMapServer

@Suite("Login rate limits, counted in the database", .ownThreads)
struct LoginRateLimiterTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func accountAttemptsExpireWithTheWindow() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let limiter = LoginRateLimiter(
                store: storage, limits: LoginRateLimits(failuresPerAccount: 2, accountWindow: .seconds(60)))
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) == nil)
            #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(10)) == nil)
            // The third attempt in the window that began at 0 s waits until 60 s.
            #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(20)) == .seconds(40))
            #expect(try await limiter.admit(account: "grace", address: nil, now: start.addingTimeInterval(20)) == nil)
            // Past the window, a new one begins.
            #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(61)) == nil)
        }
    }

    @Test func successClearsTheAccountsAttempts() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let limiter = LoginRateLimiter(store: storage, limits: LoginRateLimits(failuresPerAccount: 2))
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) == nil)
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) == nil)
            try await limiter.succeeded(account: "ada")
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) == nil)
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) == nil)
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) != nil)
        }
    }

    @Test func addressesCountEveryAttempt() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let limiter = LoginRateLimiter(
                store: storage, limits: LoginRateLimits(attemptsPerAddress: 3, addressWindow: .seconds(60)))
            for second in 0..<3 {
                #expect(try await limiter.admit(account: "user\(second)", address: "10.0.0.1", now: start.addingTimeInterval(Double(second))) == nil)
            }
            #expect(try await limiter.admit(account: "other", address: "10.0.0.1", now: start.addingTimeInterval(5)) == .seconds(55))
            #expect(try await limiter.admit(account: "other", address: "10.0.0.2", now: start.addingTimeInterval(5)) == nil)
            #expect(try await limiter.admit(account: "other", address: "10.0.0.1", now: start.addingTimeInterval(60.5)) == nil)
        }
    }

    @Test func concurrentAttemptsAreCountedOneByOne() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let limiter = LoginRateLimiter(store: storage, limits: LoginRateLimits(failuresPerAccount: 5))
            let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<25 {
                    group.addTask { try await limiter.admit(account: "ada", address: nil, now: start) == nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(admitted == 5)
        }
    }
}
