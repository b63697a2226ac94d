import Foundation
@testable import OnTheMapDaemon
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// No password, session id or XSRF token reaches the log, at any level.
@Suite("Secrets stay out of the log", .ownThreads)
struct LogSecrecyTests {
    @Test("At --log-level trace, a login, a write and a logout leave no secret in the log")
    func traceLogHoldsNoSecret() throws {
        let bed = try DaemonTestBed(students: 10, daemonArguments: ["--log-level", "trace"])
        defer { bed.tearDown() }
        try bed.login()
        let saved = try JSONText.parse(Data(contentsOf: URL(fileURLWithPath: bed.daemon.sessionFile)))
        let sessionID = try #require(saved["session"]?["sessionID"]?.stringValue)
        let xsrfToken = try #require(saved["session"]?["xsrfToken"]?.stringValue)
        _ = try bed.result("postPin", params(("mapString", .string("Lima, Peru")), ("mediaURL", .string("https://ada.example"))))
        _ = try bed.result("logout")

        let log = bed.daemon.log
        // The log did record the HTTP traffic in detail: otherwise this test would prove nothing.
        #expect(log.contains("ahc-http-part"), "no HTTP trace in the log")
        #expect(log.contains("<redacted>"))
        #expect(!log.contains(DaemonTestBed.password))
        #expect(!log.contains(sessionID))
        #expect(!log.contains(xsrfToken))
    }

    @Test("Named secrets are masked whatever their value")
    func namedSecretsAreMasked() {
        let head = "headers: Content-Type: application/json; Set-Cookie: XSRF-TOKEN=abc123def; Max-Age=60; Path=/"
        #expect(LogRedaction.redact(head) == "headers: Content-Type: application/json; Set-Cookie: <redacted>; Max-Age=60; Path=/")
        #expect(LogRedaction.redact("X-OnTheMap-Session: 17S00ff") == "X-OnTheMap-Session: <redacted>")
        #expect(LogRedaction.redact(#"{"udacity":{"username":"a@b.c","password":"p\"w"}}"#) == #"{"udacity":{"username":"a@b.c","password":<redacted>}}"#)
        #expect(LogRedaction.redact("refreshed 100 students") == "refreshed 100 students")
    }
}
