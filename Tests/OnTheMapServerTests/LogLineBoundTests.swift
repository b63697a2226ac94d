import Foundation
import Logging
import NIOHTTP1
import OnTheMapServer
import OnTheMapTestSupport
import Synchronization
import Testing

/// No log line over 2 KB, and none split in two, whatever a request holds: the real server at debug
/// (where each request's path is logged), in both log formats, given a 40 KB path with control
/// characters in it; and the handler itself with a message of 45 KB.
@Suite("Log lines stay short", .ownThreads)
struct LogLineBoundTests {
    @Test(arguments: ["text", "json"])
    func aHugePathMakesNoHugeLine(format: String) async throws {
        let fixture = try ServerFixture(arguments: ["--log-level", "debug", "--log-format", format])
        defer { fixture.tearDown() }
        let root = "http://127.0.0.1:\(fixture.server.port)"
        let path = "/v1/" + String(repeating: "a%0A%1B", count: 6_000)
        #expect(try await ServerHTTP.send(.GET, root + path).status == 404)
        #expect(try await ServerHTTP.send(.GET, root + "/healthz").status == 200)
        fixture.server.stop()
        let lines = fixture.server.log.split(separator: "\n", omittingEmptySubsequences: false)
        // Hummingbird hands the path on as sent (percent escapes) or decoded (escaped by the handler).
        #expect(lines.contains { $0.contains("a%0A%1Ba") || $0.contains(#"a\u{A}\u{1B}a"#) }, "the path was logged")
        for line in lines {
            #expect(line.utf8.count <= BoundedLogHandler.maxLineBytes, "a line of \(line.utf8.count) bytes: \(line.prefix(200))…")
            #expect(!line.hasPrefix("a"), "a line begun by the path: \(line.prefix(80))")
        }
    }

    @Test func theHandlerCutsAndEscapes() throws {
        let written = Mutex<[LogEvent]>([])
        let logger = Logger(label: "test") { _ in
            BoundedLogHandler(LogCapture(record: { event in written.withLock { $0.append(event) } }))
        }
        logger.error(
            "\(String(repeating: "x", count: 45_000))\nforged line",
            metadata: ["error": "\(String(repeating: "e\u{1B}", count: 10_000))", "path": "/v1/StudentLocation"])
        let event = try #require(written.withLock { $0.first })
        let message = event.message.description
        let metadata = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        #expect(message.utf8.count + metadata.utf8.count < BoundedLogHandler.maxLineBytes - 200, "\(message.utf8.count) + \(metadata.utf8.count)")
        #expect(message.hasSuffix("…") && !message.contains("\n"))
        #expect(metadata.contains("\\u{1B}") && !metadata.contains("\u{1B}"))
        #expect(metadata.contains("path=/v1/StudentLocation"), "short values are kept whole: \(metadata)")
    }
}
