import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// Whatever a local client sends, the daemon's memory stays bounded and it keeps answering others.
@Suite("Memory stays bounded under hostile clients", .ownThreads)
struct MemoryBoundTests {
    static let limit = 128 * 1024 * 1024

    /// The peak resident size of the daemon so far, checked against the limit.
    private func expectPeakWithinLimit(_ bed: DaemonTestBed, sourceLocation: SourceLocation = #_sourceLocation) {
        let peak = ProcessMemory.peakResident(pid: bed.daemon.pid) ?? Int.max
        #expect(peak <= Self.limit, "peak RSS \(peak / 1_048_576) MiB", sourceLocation: sourceLocation)
    }

    /// Another client is answered, promptly.
    private func expectOthersServed(_ bed: DaemonTestBed, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let status = try RPCConnection(path: bed.daemon.socketPath, timeout: .seconds(10)).call("status").get()
        #expect(status["loggedIn"] == .bool(true), sourceLocation: sourceLocation)
    }

    @Test("100,000 pipelined students requests from a client that never reads")
    func pipelinedRequestsFromAClientThatNeverReads() async throws {
        let bed = try DaemonTestBed(students: 100)
        defer { bed.tearDown() }
        try bed.login()
        // Build the stored answers (a `status` does), so the requests below take the event-loop fast path.
        _ = try bed.result("status")
        let requests: [UInt8] = (1...100_000).flatMap { id -> [UInt8] in
            Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"students"}"#.utf8) + [10]
        }
        let hog = try RawSocket(path: bed.daemon.socketPath)
        let sent = try await onOwnThread { hog.send(requests, timeout: .seconds(10)) }
        // The daemon stopped reading: most of the requests are still unsent after 10 s.
        #expect(sent < requests.count, "the daemon took all \(sent) bytes without their answers being read")
        try expectOthersServed(bed)
        expectPeakWithinLimit(bed)
        withExtendedLifetime(hog) {}
    }

    @Test("One batch of 20,000 students requests is refused, not answered in one huge reply")
    func hugeBatchIsRefused() async throws {
        let bed = try DaemonTestBed(students: 100)
        defer { bed.tearDown() }
        try bed.login()
        let batch = "[" + (1...20_000).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"students"}"# }.joined(separator: ",") + "]\n"
        let client = try RawSocket(path: bed.daemon.socketPath)
        let reply = try await onOwnThread { () -> String in
            client.send(Array(batch.utf8), timeout: .seconds(30))
            var received: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while !received.contains(10), ContinuousClock.now < deadline { received += client.receiveAll(timeout: .milliseconds(200)) }
            return String(decoding: received, as: UTF8.self)
        }
        let answer = try JSONText.parse(reply.split(separator: "\n").first.map(String.init)?.utf8 ?? "".utf8)
        #expect(answer["error"]?["code"] == .integer(RPCError.invalidRequestCode))
        #expect(answer["error"]?["message"]?.stringValue?.contains("at most 256") == true, "\(reply.prefix(300))")
        try expectOthersServed(bed)
        expectPeakWithinLimit(bed)
    }

    @Test("A batch whose answers pass 8 MiB is refused with -32600")
    func batchReplySizeIsCapped() throws {
        let bed = try DaemonTestBed(students: 200, daemonArguments: ["--cache-size", "200"])
        defer { bed.tearDown() }
        try bed.login()
        // 256 answers of 200 students (~60 KB each) come to ~15 MB.
        let requests = (1...256).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"students","params":{"limit":200}}"# }
        let connection = try bed.connect(timeout: .seconds(60))
        try connection.send(line: "[" + requests.joined(separator: ",") + "]")
        let answer = try #require(try connection.read(WireJSON.self))
        if case .array = answer {
            Issue.record("the batch's answers stayed under 8 MiB; make the requests larger")
        } else {
            #expect(answer["error"]?["code"] == .integer(RPCError.invalidRequestCode))
            #expect(answer["error"]?["message"]?.stringValue?.contains("8 MiB") == true)
        }
        expectPeakWithinLimit(bed)
    }

    @Test("500 connections each holding most of a 1 MiB line")
    func manyPartialLines() async throws {
        let bed = try DaemonTestBed(students: 20)
        defer { bed.tearDown() }
        try bed.login()
        let partial = [UInt8](repeating: UInt8(ascii: " "), count: 1_000_000)
        let path = bed.daemon.socketPath
        let held = try await onOwnThread { () throws -> Int in
            let holders = try (0..<500).map { _ in
                let socket = try RawSocket(path: path)
                socket.send(partial, timeout: .seconds(2))
                return socket
            }
            // A connection the daemon refused has its answer and its end of file; the others are
            // held. Count until the figure settles (a busy daemon may still be reading).
            var answered = Set<Int>()
            var lastChange = ContinuousClock.now
            while ContinuousClock.now - lastChange < .seconds(2) {
                for (index, socket) in holders.enumerated() where !answered.contains(index) {
                    let bytes = socket.receiveAll(timeout: .milliseconds(1))
                    if String(decoding: bytes, as: UTF8.self).contains("unfinished requests") {
                        answered.insert(index)
                        lastChange = .now
                    }
                }
            }
            return holders.count - answered.count
        }
        // The pool (32 MiB) holds about 32 of these lines; the rest were told no.
        #expect(held <= 64, "the daemon holds \(held) unfinished 1 MB lines")
        try expectOthersServed(bed)
        expectPeakWithinLimit(bed)
    }
}
