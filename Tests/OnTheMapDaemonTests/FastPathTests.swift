import Foundation
import NIOCore
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

    @Test func storedAnswersExpireAndYieldToChanges() throws {
        let answers = FastAnswers()
        let entry = FastAnswers.Entry(statusPrefix: #"{"version":"x""#, students: nil, validUntil: Date().addingTimeInterval(-1))
        answers.store(entry, builtAt: answers.generation)
        #expect(answers.current() == nil)  // past its validity: rebuilt by the ordinary path

        let fresh = FastAnswers.Entry(statusPrefix: #"{"version":"x""#, students: nil, validUntil: nil)
        let generation = answers.generation
        answers.invalidate()  // a change lands while the rebuild was reading state…
        answers.store(fresh, builtAt: generation)
        #expect(answers.current() == nil)  // …so what it read is not stored
        answers.store(fresh, builtAt: answers.generation)
        let reply = try #require(answers.reply(to: ByteBuffer(string: #"{"jsonrpc":"2.0","id":"a","method":"status"}"#).readableBytesView, allocator: .init()))
        let line = String(buffer: reply)
        #expect(line.hasPrefix(#"{"jsonrpc":"2.0","id":"a","result":{"version":"x","uptime":"#))
        #expect(line.hasSuffix("}}\n"))
        // The same request, written differently, gets the same answer.
        for spelling in [#"{"jsonrpc":"2.0","id":12,"method":"status"}"#, #"{ "method": "status", "id": 12, "jsonrpc": "2.0" }"#,
                         #"{"jsonrpc":"2.0","id":12,"method":"status","params":{}}"#] {
            let reply = try #require(answers.reply(to: ByteBuffer(string: spelling).readableBytesView, allocator: .init()))
            #expect(String(buffer: reply).hasPrefix(#"{"jsonrpc":"2.0","id":12,"result":{"version":"x","uptime":"#), "\(spelling)")
        }
        // Bytes the matcher must not echo are left to the parser, which refuses "012" as JSON.
        #expect(answers.reply(to: ByteBuffer(string: #"{"jsonrpc":"2.0","id":012,"method":"status"}"#).readableBytesView, allocator: .init()) == nil)
        let big = try #require(answers.reply(to: ByteBuffer(string: #"{"jsonrpc":"2.0","id":1234567890123456789,"method":"status"}"#).readableBytesView, allocator: .init()))
        #expect(String(buffer: big).hasPrefix(#"{"jsonrpc":"2.0","id":1234567890123456789,"result":"#))
        // Anything but a plain request goes the ordinary way.
        for other in [#"{"jsonrpc":"2.0","id":1,"method":"status","params":{"x":1}}"#, #"{"jsonrpc":"2.0","method":"status"}"#,
                      #"{"jsonrpc":"2.0","id":1,"method":"students"}"#, #"{"jsonrpc":"2.0","id":1,"method":"refresh"}"#, "{"] {
            #expect(answers.reply(to: ByteBuffer(string: other).readableBytesView, allocator: .init()) == nil, "\(other)")
        }
    }
}
