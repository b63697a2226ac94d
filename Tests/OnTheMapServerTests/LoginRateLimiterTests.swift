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
            // The session of a successful login is stored with the count forgotten, in one write.
            let ada = try await storage.createAccount(
                NewAccount(email: "ada@example.com", passwordHash: nil, firstName: "Ada", lastName: "Lovelace"))
            let session = SessionRecord(
                id: "s1", xsrfToken: "x1", accountKey: ada.key, createdAt: start, expiresAt: start.addingTimeInterval(60))
            try await storage.insertSession(session, now: start, forgettingAttemptsOf: LoginRateLimiter.subjects(account: "ada"))
            #expect(try await storage.session(id: "s1") == session)
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) == nil)
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) == nil)
            #expect(try await limiter.admit(account: "ada", address: nil, now: start) != nil)
        }
    }

    /// Five wrong passwords pause the account for what is left of the minute, after which the right
    /// one works; guessing on is held to 20 attempts an hour, the bound 5 every 15 minutes gave.
    @Test func aShortPauseForMistakesAndAnHourlyBoundForGuessing() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let limiter = LoginRateLimiter(store: storage, limits: LoginRateLimits())
            for second in 0..<5 {
                #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(Double(second))) == nil)
            }
            // The sixth, 10 s after the first, waits 50 s (not 15 minutes)…
            #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(10)) == .seconds(50))
            // …retrying meanwhile does not make the pause longer…
            #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(30)) == .seconds(30))
            // …and a minute on, the right password gets its chance.
            #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(61)) == nil)

            // Someone guessing on, five a minute: 20 attempts in the hour, then nothing until it is over.
            var admitted = 6
            for minute in 2..<60 {
                for attempt in 0..<5 {
                    let now = start.addingTimeInterval(Double(minute * 60 + attempt))
                    if try await limiter.admit(account: "ada", address: nil, now: now) == nil { admitted += 1 }
                }
            }
            #expect(admitted == 20, "at most 20 attempts an hour")
            #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(3599)) == .seconds(1))
            #expect(try await limiter.admit(account: "ada", address: nil, now: start.addingTimeInterval(3601)) == nil)
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

    @Test func oneCallCountsEachSubjectInItsOwnWindow() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let address = AttemptCounter(subject: "address:10.0.0.9", window: .seconds(60), limit: 10)
            let account = AttemptCounter(subject: "account:ada", window: .seconds(900), limit: 10)
            #expect(try await storage.countAttempts([address, account], now: start).map(\.attempts) == [1, 1])
            #expect(try await storage.countAttempts([account], now: start.addingTimeInterval(30)).map(\.attempts) == [2])
            // 70 s on, the address's window is over and the account's is not; answers in the counters' order.
            let later = try await storage.countAttempts([account, address], now: start.addingTimeInterval(70))
            #expect(later == [
                AttemptTally(attempts: 3, windowStart: start),
                AttemptTally(attempts: 1, windowStart: start.addingTimeInterval(70)),
            ])
        }
    }

    @Test func anAttemptRefusedForItsAddressDoesNotCountAgainstTheAccount() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let limiter = LoginRateLimiter(
                store: storage, limits: LoginRateLimits(failuresPerAccount: 2, attemptsPerAddress: 1))
            #expect(try await limiter.admit(account: "ada", address: "10.0.0.1", now: start) == nil)
            // The address is over its limit: refused, and Ada's count stays at 1…
            #expect(try await limiter.admit(account: "ada", address: "10.0.0.1", now: start) != nil)
            #expect(try await limiter.admit(account: "ada", address: "10.0.0.1", now: start) != nil)
            // …so from another address her second attempt is still allowed, and the third is not.
            #expect(try await limiter.admit(account: "ada", address: "10.0.0.2", now: start) == nil)
            #expect(try await limiter.admit(account: "ada", address: "10.0.0.3", now: start) != nil)
            let tallies = try await storage.countAttempts(
                [AttemptCounter(subject: LoginRateLimiter.subject(address: "10.0.0.1"), window: .seconds(60), limit: 1),
                 AttemptCounter(subject: LoginRateLimiter.subject(account: "ada"), window: .seconds(900), limit: 2)],
                now: start)
            #expect(tallies.map(\.attempts) == [4], "only the address is counted once it is over its limit")
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
