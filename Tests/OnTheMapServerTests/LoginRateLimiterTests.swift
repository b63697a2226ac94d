import Foundation
import Testing

@testable import OnTheMapServer

@Suite("Login rate limits")
struct LoginRateLimiterTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func accountFailuresExpireWithTheWindow() async {
        let limiter = LoginRateLimiter(limits: LoginRateLimits(failuresPerAccount: 2, accountWindow: .seconds(60)))
        #expect(await limiter.admit(account: "ada", address: nil, now: start) == nil)
        await limiter.recordFailure(account: "ada", now: start)
        await limiter.recordFailure(account: "ada", now: start.addingTimeInterval(10))
        #expect(await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(20)) == .seconds(40))
        #expect(await limiter.admit(account: "grace", address: nil, now: start.addingTimeInterval(20)) == nil)
        // The first failure leaves the window at 60 s, making room again.
        #expect(await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(61)) == nil)
    }

    @Test func successClearsTheAccountsFailures() async {
        let limiter = LoginRateLimiter(limits: LoginRateLimits(failuresPerAccount: 2))
        await limiter.recordFailure(account: "ada", now: start)
        await limiter.recordSuccess(account: "ada")
        await limiter.recordFailure(account: "ada", now: start)
        #expect(await limiter.admit(account: "ada", address: nil, now: start) == nil)
    }

    @Test func addressesCountEveryAttempt() async {
        let limiter = LoginRateLimiter(limits: LoginRateLimits(attemptsPerAddress: 3, addressWindow: .seconds(60)))
        for second in 0..<3 {
            #expect(await limiter.admit(account: "user\(second)", address: "10.0.0.1", now: start.addingTimeInterval(Double(second))) == nil)
        }
        #expect(await limiter.admit(account: "other", address: "10.0.0.1", now: start.addingTimeInterval(5)) == .seconds(55))
        #expect(await limiter.admit(account: "other", address: "10.0.0.2", now: start.addingTimeInterval(5)) == nil)
        #expect(await limiter.admit(account: "other", address: "10.0.0.1", now: start.addingTimeInterval(60.5)) == nil)
    }
}
