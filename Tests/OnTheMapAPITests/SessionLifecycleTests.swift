import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@Suite("Logout with XSRF, and session expiry", .ownThreads)
struct SessionLifecycleTests {
    @Test func logoutEndsTheSession() async throws {
        let bed = try APITestBed()
        let session = try await bed.login()
        let ended = try await bed.client.logout(session)
        #expect(ended.id == session.sessionID)
        #expect(ended.expirationDate.map { abs($0.timeIntervalSinceNow) < 60 } == true)

        // The session no longer authorizes writes, and logging out twice is refused.
        let write = await apiError { _ = try await bed.client.createStudentLocation(bed.draft(), session: session) }
        #expect(write?.kind == .unauthorized)
        let again = await apiError { _ = try await bed.client.logout(session) }
        #expect(again?.kind == .forbidden)
        try await bed.close()
    }

    @Test func logoutNeedsTheXSRFToken() async throws {
        let bed = try APITestBed()
        var session = try await bed.login()
        let originalToken = session.xsrfToken
        session.xsrfToken = nil
        let missing = await apiError { _ = try await bed.client.logout(session) }
        #expect(missing?.kind == .forbidden)
        #expect(missing?.message.contains("X-XSRF-TOKEN") == true)
        let token = try #require(originalToken)
        session.xsrfToken = (token.hasPrefix("0") ? "1" : "0") + token.dropFirst()  // differs in one character
        let wrong = await apiError { _ = try await bed.client.logout(session) }
        #expect(wrong?.kind == .forbidden)
        // The session survived both attempts.
        _ = try await bed.client.createStudentLocation(bed.draft(), session: session)
        try await bed.close()
    }

    @Test func expiredSessionsAreRefused() async throws {
        let bed = try APITestBed(serverArguments: ["--session-lifetime", "1"])
        let session = try await bed.login()
        #expect(session.expiration.map { $0.timeIntervalSinceNow <= 1 } == true)
        try await Task.sleep(for: .milliseconds(1200))
        #expect(session.isExpired())
        let error = await apiError { _ = try await bed.client.createStudentLocation(bed.draft(), session: session) }
        #expect(error?.kind == .unauthorized)
        #expect(error?.message.contains("expired") == true)
        try await bed.close()
    }
}
