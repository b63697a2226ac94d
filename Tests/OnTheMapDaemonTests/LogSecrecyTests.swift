import Foundation
import Logging
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

    @Test("Control and bidi characters are written as code points, so quoted text cannot drive a terminal")
    func controlsAreEscaped() {
        // An upstream's error text, as the daemon quotes it: a window title, a screen clear, C1's CSI, an override.
        let message = RedactingLogHandler.redact("refresh failed\nforged line")
        let metadata = "\(RedactingLogHandler.redact(["error": "Oops \u{1B}]0;title\u{07}\u{1B}[2J\u{9B}31m \u{202E}evil"]))"
        for line in [message, metadata] {
            #expect(!line.unicodeScalars.contains { DisplayText.isControl($0) || DisplayText.isBidiControl($0) }, "\(line.debugDescription)")
        }
        #expect(message == #"refresh failed\u{A}forged line"#)
        #expect(metadata.contains(#"Oops \u{1B}]0;title\u{7}\u{1B}[2J\u{9B}31m \u{202E}evil"#), "\(metadata)")
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
