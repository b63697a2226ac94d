import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// One client cannot stall another (issue 39): while a client sends the worst request the limits
/// allow, a batch of them (64 searches of 200 bytes each through 10,000 cached students; a batch of
/// 256 only lasts longer, as the work queue takes one of them at a time), then a 1000×1000 map of
/// them, another client's `status` is answered within 100 ms nine times in ten, and none waits for
/// the batch (the slowest within 2 s). The bounds are generous: a status takes microseconds, and
/// `make bench` measures the same load (its slowest, 7.8 ms). Searches past the bound are refused,
/// naming it.
@Suite("No client stalls another", .ownThreads)
struct StallTests {
    @Test func statusAnswersWhileAnotherClientSearchesAndDraws() throws {
        let bed = try DaemonTestBed(students: 10_000, daemonArguments: ["--cache-size", "10000"])
        defer { bed.tearDown() }
        try bed.login()
        #expect(try bed.result("status")["students"]?["count"] == .integer(10_000))

        let search = Self.worstSearch()
        #expect(search.utf8.count == 200)
        let batch = Self.worstBatch(64)

        let path = bed.daemon.socketPath
        let done = LockedFlag()
        let worker = Thread {
            guard let busy = try? RPCConnection(path: path, timeout: .seconds(600)) else { return done.set() }
            try? busy.send(line: batch)
            _ = try? busy.readLine()
            _ = try? busy.call("map", params: params(("width", .integer(1000)), ("height", .integer(1000))))
            done.set()
        }
        worker.start()

        let watcher = try bed.connect()
        var waits: [Duration] = []
        let clock = ContinuousClock()
        while !done.isSet {
            let start = clock.now
            #expect(try watcher.call("status").get()["loggedIn"] == .bool(true))
            waits.append(clock.now - start)
            usleep(20_000)
        }
        waits.sort()
        #expect(waits.count >= 10, "the worst batch took long enough to watch (\(waits.count) statuses)")
        // Nine in ten within 100 ms; and none waits for the batch (seconds): one slow answer on a
        // machine busy with other work is the machine, a stalled daemon makes them all slow.
        let ninth = waits[min(waits.count - 1, waits.count * 9 / 10)]
        #expect(ninth < .milliseconds(100), "9 in 10 statuses within \(ninth), the slowest \(waits.last ?? .zero)")
        #expect((waits.last ?? .zero) < .seconds(2), "the slowest status took \(waits.last ?? .zero)")

        let tooLong = try bed.error("students", params(("search", .string(search + "x"))))
        #expect(tooLong.code == RPCError.invalidParamsCode)
        #expect(tooLong.message == "search is too long (at most 200 bytes).")
    }

    /// Work left by clients that closed their connections is dropped, and however many clients
    /// search at once, another's list of the newest is answered at once: batches of 256 searches,
    /// sent and left by 8 connections, kept the daemon fetching the server's list for minutes (each
    /// search the full cache cannot answer fetches it), and 256 searching connections kept another
    /// client's list waiting 51 s.
    @Test func manyClientsSearchingCannotStallAnotherOrOutliveTheirConnections() throws {
        let bed = try DaemonTestBed(students: 10_000, daemonArguments: ["--cache-size", "10000"])
        defer { bed.tearDown() }
        try bed.login()
        let path = bed.daemon.socketPath
        let batch = Self.worstBatch(256)
        let victim = try RPCConnection(path: path, timeout: .seconds(600))
        let clock = ContinuousClock()
        let search = params(("search", .string("berlin")), ("limit", .integer(1)))

        // Sent and left: the connections close as soon as their batches are written.
        for _ in 0..<8 {
            let gone = try RPCConnection(path: path)
            try gone.send(line: batch)
        }
        #expect(try victim.call("students", params: search).get()["total"] != nil)
        // At most the request each left batch had under way was carried out: the server's pages of
        // the list stop being asked for after a few fetches of 11 pages (the login's refresh, the
        // search above, and the few under way), where all 2,048 searches asked for 22,528.
        let root = String(bed.server.baseURL.dropLast("/v1".count))
        var pages = try Self.listPagesServed(root)
        #expect(
            try eventually(timeout: .seconds(120)) {
                let before = pages
                sleep(2)
                pages = try Self.listPagesServed(root)
                return pages == before
            }, "the server is still asked for pages of the list after the clients left (\(pages))")
        #expect(pages <= 150, "\(pages) pages of the list served for 8 left batches of 256 searches")
        // Dropped quietly: a client that goes is no failure of the daemon's.
        #expect(!bed.daemon.log.contains("method failed"), "\(bed.daemon.log.suffix(500))")

        // 32 connections searching without pause, a batch of 256 at a time.
        let searching = try (0..<32).map { _ in SearchingClient(try RPCConnection(path: path, timeout: .seconds(600))) }
        let searchers = searching.map { client in
            Thread {
                while (try? client.connection.send(line: batch)) != nil, (try? client.connection.readLine()) != nil {}
            }
        }
        searchers.forEach { $0.start() }
        // A list of the newest waits for no search.
        for _ in 0..<5 {
            let asked = clock.now
            let rows = try victim.call("students", params: params(("limit", .integer(10)))).get()["students"]
            #expect(rows.map { if case .array(let rows) = $0 { rows.count } else { -1 } } == 10)
            #expect(clock.now - asked < .seconds(2), "a list of 10 beside 32 searching clients took \(clock.now - asked)")
            usleep(200_000)
        }
        // The searchers go, each in the middle of its batch: what they leave is dropped.
        for client in searching { shutdown(client.connection.fileDescriptor, Int32(SHUT_RDWR)) }
        let start = clock.now
        #expect(try victim.call("students", params: search).get()["total"] != nil)
        #expect(clock.now - start < .seconds(30), "a search after 32 searching clients left took \(clock.now - start)")
    }

    /// How many pages of the student list (`GET /v1/StudentLocation`, answered 200) the server at
    /// `root` has served, from its metrics.
    static func listPagesServed(_ root: String) throws -> Int {
        let metrics = try runCommand("/usr/bin/curl", ["-sf", root + "/metrics"]).stdout
        return metrics.split(separator: "\n")
            .filter { $0.hasPrefix("onthemap_http_requests_total{") && $0.contains(#"route="/v1/StudentLocation""#) && $0.contains(#"method="GET""#)
                && $0.contains(#"status="200""#) }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0) { $0 + Int($1) }
    }

    /// Distinct short words, 200 bytes in all: each is looked for in every student that matched the
    /// ones before it.
    static func worstSearch() -> String {
        var words: [String] = []
        let letters = Array("aeiounrstl")
        for first in letters { for second in letters { words.append(String([first, second])) } }
        var search = String(words.joined(separator: " ").prefix(200))
        if search.hasSuffix(" ") { search.removeLast() }
        return search + String(repeating: "a", count: 200 - search.utf8.count)
    }

    /// `count` of the worst search, in one batch line.
    static func worstBatch(_ count: Int) -> String {
        let search = worstSearch()
        return "[" + (1...count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"students","params":{"search":"\#(search)","limit":1}}"# }
            .joined(separator: ",") + "]"
    }
}

/// A connection used by one thread only, and shut down from the test's.
private final class SearchingClient: @unchecked Sendable {
    let connection: RPCConnection
    init(_ connection: RPCConnection) { self.connection = connection }
}

/// A flag set on one thread and read on another.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
