import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@Suite("POST /session against the real server", .ownThreads)
struct LoginTests {
    @Test func loginReturnsSessionAccountAndXSRFCookie() async throws {
        let bed = try APITestBed()
        let session = try await bed.login()
        #expect(session.accountKey == bed.accountKey)
        #expect(session.sessionID.firstMatch(of: /^\d{10}S[0-9a-f]{32}$/) != nil)
        #expect(session.xsrfToken?.count == 64)
        let expiration = try #require(session.expiration)
        #expect(expiration.timeIntervalSinceNow > 13 * 24 * 3600)
        #expect(!"\(session)".contains(session.sessionID))
        try await bed.close()
    }

    @Test func emailIsCaseInsensitive() async throws {
        let bed = try APITestBed()
        let session = try await bed.client.login(.udacity(username: "GRACE@Example.com", password: APITestBed.password))
        #expect(session.accountKey == bed.accountKey)
        try await bed.close()
    }

    @Test func wrongPasswordAndUnknownAccountAreInvalidCredentials() async throws {
        let bed = try APITestBed()
        for (username, password) in [(APITestBed.email, "wrong"), ("nobody@example.com", "whatever")] {
            let error = await apiError { _ = try await bed.client.login(.udacity(username: username, password: password)) }
            #expect(error?.kind == .invalidCredentials)
            #expect(error?.status == 403)
            #expect(error?.message == "Account not found or invalid credentials.")
            #expect(error?.isRetryable == false)
        }
        try await bed.close()
    }

    /// The password is right but an operator disabled the account: told so, not sent to check the
    /// email and password (the CLI adds that advice to invalid credentials only).
    @Test func aDisabledAccountIsToldItIsDisabled() async throws {
        let bed = try APITestBed()
        let disable = try runCommand(
            BuiltProducts.path("onthemap-server"), ["user", "disable", APITestBed.email, "--yes", "--database", bed.fixture.databasePath])
        #expect(disable.status == 0, "\(disable.stderr)")
        let error = await apiError { _ = try await bed.login() }
        #expect(error?.kind == .forbidden)
        #expect(error?.status == 423)
        #expect(error?.message == "This account is disabled; ask the server's operator.")
        try await bed.close()
    }

    @Test func missingPasswordIsBadRequest() async throws {
        let bed = try APITestBed()
        let error = await apiError { _ = try await bed.client.login(.udacity(username: APITestBed.email, password: "")) }
        #expect(error?.kind == .badRequest)
        #expect(error?.status == 400)
        #expect(error?.message == "The field udacity.password is required.")
        try await bed.close()
    }

    @Test func repeatedFailuresLockTheAccountButNotOthers() async throws {
        let bed = try APITestBed(serverArguments: ["--max-login-failures", "3"])
        let otherKey = try bed.fixture.addUser(email: "ada@example.com", password: "analytical")
        for _ in 0..<3 {
            let error = await apiError { _ = try await bed.client.login(.udacity(username: APITestBed.email, password: "guess")) }
            #expect(error?.kind == .invalidCredentials)
        }
        // Even the right password is refused while the account is locked…
        let locked = await apiError { _ = try await bed.login() }
        #expect(locked?.kind == .rateLimited)
        #expect(locked?.status == 429)
        #expect(locked?.isRetryable == true)
        #expect(locked?.message.hasPrefix("Too many attempts: try again in ") == true, "\(locked?.message ?? "")")
        // …while another account logs in from the same address.
        let other = try await bed.client.login(.udacity(username: "ada@example.com", password: "analytical"))
        #expect(other.accountKey == otherKey)
        try await bed.close()
    }

    @Test func oneAddressIsLimitedAcrossAccounts() async throws {
        let bed = try APITestBed(serverArguments: ["--max-login-attempts-per-address", "4"])
        for index in 0..<4 {
            let error = await apiError { _ = try await bed.client.login(.udacity(username: "user\(index)@example.com", password: "x")) }
            #expect(error?.kind == .invalidCredentials)
        }
        let limited = await apiError { _ = try await bed.login() }
        #expect(limited?.kind == .rateLimited)
        try await bed.close()
    }

    @Test func facebookLoginIsRefusedWhenNotConfigured() async throws {
        let bed = try APITestBed()
        let error = await apiError { _ = try await bed.client.login(.facebook(accessToken: "EAAB")) }
        #expect(error?.kind == .invalidCredentials)
        #expect(error?.message.contains("Facebook login is not enabled") == true)
        try await bed.close()
    }
}
