import Foundation
import NIOCore
import OnTheMapAPI
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// `status` and the default `students` are answered on the event loop from stored answers; a batch
/// always takes the ordinary path. Both must say the same thing, and follow every change at once.
@Suite("The fast path for status and students", .ownThreads)
struct FastPathTests {
    /// The result of one request sent alone (fast path) and inside a batch (ordinary path).
    func bothWays(_ bed: DaemonTestBed, _ method: String) throws -> (fast: WireJSON?, ordinary: WireJSON?) {
        let connection = try bed.connect()
        // The first request after a change rebuilds the stored answers on the ordinary path; the
        // second is answered from them.
        try connection.send(line: #"{"jsonrpc":"2.0","id":6,"method":"\#(method)"}"#)
        _ = try connection.readMessage()
        try connection.send(line: #"{"jsonrpc":"2.0","id":7,"method":"\#(method)"}"#)
        let fast = try connection.readMessage()
        try connection.send(line: #"[{"jsonrpc":"2.0","id":8,"method":"\#(method)"}]"#)
        guard case .array(let replies)? = try connection.readMessage() else { return (fast?["result"], nil) }
        #expect(fast?["id"] == .integer(7))
        return (fast?["result"], replies.first?["result"])
    }

    func withoutUptime(_ status: WireJSON?) -> WireJSON? {
        guard case .object(let members)? = status else { return nil }
        #expect(members.last?.0 == "uptime")
        return .object(members.filter { $0.0 != "uptime" })
    }

    @Test func bothPathsAgreeAndFollowLoginAndLogout() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        var status = try bothWays(bed, "status")
        #expect(withoutUptime(status.fast) == withoutUptime(status.ordinary))
        #expect(status.fast?["loggedIn"] == .bool(false))

        try bed.login()
        status = try bothWays(bed, "status")
        #expect(status.fast?["loggedIn"] == .bool(true))
        #expect(status.fast?["students"]?["count"] == .integer(100))
        #expect(withoutUptime(status.fast) == withoutUptime(status.ordinary))
        let students = try bothWays(bed, "students")
        #expect(students.fast != nil)
        #expect(students.fast == students.ordinary)

        _ = try bed.result("logout")
        status = try bothWays(bed, "status")
        #expect(status.fast?["loggedIn"] == .bool(false))
        #expect(status.fast?["students"]?["count"] == .integer(0))
        #expect(try bed.error("students").code == RPCError.notLoggedInCode)
    }

    /// On a newline connection the fast path sends the prepared students between the two ends of
    /// their envelope, in three writes; a Content-Length connection frames each write as a message,
    /// so there the answer must still be one frame of exactly its length.
    @Test func studentsAreOneMessageInEitherFraming() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        let lines = try bothWays(bed, "students")
        let framed = try FramedSocket(path: bed.daemon.socketPath)
        for id in 1...3 {
            framed.request(#"{"jsonrpc":"2.0","id":\#(id),"method":"students"}"#)
            // `readFrame` takes exactly `Content-Length: N` and a body of N bytes.
            let frame = try #require(try framed.readFrame())
            #expect(frame.body.hasPrefix(#"{"jsonrpc":"2.0","id":\#(id),"result":{"#))
            let message = try WireJSON.parse(Array(frame.body.utf8))
            #expect(message["result"] == lines.fast, "request \(id)")
        }
    }

    /// The uptime is written with integer arithmetic: the same JSON number the `Double` makes.
    @Test(arguments: [0, 1, 7, 10, 100, 999, 1000, 1001, 1500, 12_340, 59_999, 86_400_007, 3_155_760_000_123])
    func uptimeIsWrittenAsTheSameNumber(milliseconds: Int) {
        var buffer = ByteBuffer()
        PreparedAnswers.writeSeconds(milliseconds: milliseconds, into: &buffer)
        #expect(String(buffer: buffer) == WireJSON.number(Double(milliseconds) / 1000).serialized)
    }

    /// The fast path's handler, over a feed the test publishes to.
    private func handler(_ feed: StateFeed, _ answers: PreparedAnswers) -> FastPathHandler {
        FastPathHandler(feed: feed, answers: answers)
    }

    private func reply(_ handler: FastPathHandler, _ line: String) -> String? {
        handler.reply(to: ByteBuffer(string: line).readableBytesView, allocator: .init()).map { String(buffer: $0) }
    }

    @Test func answersArePreparedOncePerVersionAndFollowEachNewOne() throws {
        var snapshot = DaemonSnapshot(staleAfter: 600)
        let feed = StateFeed(snapshot)
        let answers = PreparedAnswers(version: "x", apiURL: "http://127.0.0.1:1/v1")
        let fast = handler(feed, answers)
        let first = try #require(reply(fast, #"{"jsonrpc":"2.0","id":"a","method":"status"}"#))
        #expect(first.hasPrefix(#"{"jsonrpc":"2.0","id":"a","result":{"version":"x","apiURL":"http://127.0.0.1:1/v1","loggedIn":false"#))
        #expect(first.contains(#""busy":[],"uptime":"#) && first.hasSuffix("}}\n"))
        // One prepared answer per version: asked again, the same buffer.
        let prepared = answers.prepared(for: snapshot)
        #expect(answers.prepared(for: snapshot).statusPrefix == prepared.statusPrefix)
        // A new version is answered at once, without anyone invalidating anything.
        snapshot.version += 1
        snapshot.busy = ["refresh"]
        feed.publish(snapshot)
        #expect(try #require(reply(fast, #"{"jsonrpc":"2.0","id":1,"method":"status"}"#)).contains(#""busy":["refresh"]"#))
        // Logged out: no students answer to give on the fast path (the ordinary one says why).
        #expect(reply(fast, #"{"jsonrpc":"2.0","id":1,"method":"students"}"#) == nil)
    }

    @Test func anExpiredSessionGoesTheOrdinaryWay() throws {
        var snapshot = DaemonSnapshot(staleAfter: 600)
        snapshot.version = 1
        snapshot.session = APISession(accountKey: "k", sessionID: "s", xsrfToken: nil, expiration: Date().addingTimeInterval(-1))
        snapshot.account = AccountInfo(key: "k", firstName: "Ada", lastName: "Lovelace")
        snapshot.refreshedAt = Date()
        let fast = handler(StateFeed(snapshot), PreparedAnswers(version: "x", apiURL: "u"))
        #expect(reply(fast, #"{"jsonrpc":"2.0","id":1,"method":"status"}"#) == nil)
        #expect(reply(fast, #"{"jsonrpc":"2.0","id":1,"method":"students"}"#) == nil)
    }

    @Test func anyPlainSpellingIsAnsweredAndAnythingElseIsNot() throws {
        let fast = handler(StateFeed(DaemonSnapshot(staleAfter: 600)), PreparedAnswers(version: "x", apiURL: "u"))
        for spelling in [#"{"jsonrpc":"2.0","id":12,"method":"status"}"#, #"{ "method": "status", "id": 12, "jsonrpc": "2.0" }"#,
                         #"{"jsonrpc":"2.0","id":12,"method":"status","params":{}}"#] {
            #expect(try #require(reply(fast, spelling), "\(spelling)").hasPrefix(#"{"jsonrpc":"2.0","id":12,"result":{"version":"x","#), "\(spelling)")
        }
        let big = try #require(reply(fast, #"{"jsonrpc":"2.0","id":1234567890123456789,"method":"status"}"#))
        #expect(big.hasPrefix(#"{"jsonrpc":"2.0","id":1234567890123456789,"result":"#))
        for other in [#"{"jsonrpc":"2.0","id":1,"method":"status","params":{"x":1}}"#, #"{"jsonrpc":"2.0","method":"status"}"#,
                      #"{"jsonrpc":"2.0","id":012,"method":"status"}"#, #"{"jsonrpc":"2.0","id":1,"method":"refresh"}"#, "{",
                      #"[{"jsonrpc":"2.0","id":1,"method":"status"}]"#] {
            #expect(reply(fast, other) == nil, "\(other)")
        }
    }
}
