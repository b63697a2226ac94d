import Foundation
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// The `students` answer and the cache file are spliced from bytes the cache writes once per
/// refresh; they must stay the bytes the `WireJSON` tree gave.
@Suite("students answers and the cache file, written from stored bytes")
struct StudentAnswerBytesTests {
    static let locations: [StudentLocation] = [
        StudentLocation(
            objectId: "a\"1", uniqueKey: "k1", firstName: "Zoë", lastName: "O'Brien\n\"Jr\"", mapString: "São Paulo, Brasil",
            mediaURL: "https://example.org/?q=1&r=/", latitude: -23.5505, longitude: -46.6333,
            createdAt: Date(timeIntervalSince1970: 1_424_826_638.103), updatedAt: Date(timeIntervalSince1970: 1_425_939_890.315)),
        StudentLocation(
            objectId: "b2", uniqueKey: "k2", firstName: "", lastName: "東京", mapString: "", mediaURL: "", latitude: 0,
            longitude: 180, createdAt: nil, updatedAt: nil),
    ]

    static func json(_ location: StudentLocation) -> ArraySlice<UInt8> {
        var bytes: [UInt8] = []
        location.writeWireJSON(into: &bytes)
        return bytes[...]
    }

    @Test(arguments: [(Date?.some(Date(timeIntervalSince1970: 1_700_000_000.5)), false), (nil, true)])
    func answerIsTheWireJSONOfItsParts(refreshedAt: Date?, stale: Bool) {
        let answer = StudentsAnswer(students: Self.locations.map(Self.json), total: 7, refreshedAt: refreshedAt, stale: stale)
        let tree = WireJSON.object([
            ("students", .array(Self.locations.map(\.wireJSON))),
            ("total", .integer(7)),
            ("refreshedAt", refreshedAt.map { .string(WireTimestamp.milliseconds($0)) } ?? .null),
            ("stale", .bool(stale)),
        ])
        #expect(String(decoding: answer.serializedBytes, as: UTF8.self) == tree.serialized)
    }

    @Test func distancesAreTheLastMemberOfEachStudent() {
        let distances = [12.345, 1_234.96]
        let answer = StudentsAnswer(
            students: Self.locations.map(Self.json), distancesKm: distances, total: 2, refreshedAt: nil, stale: false)
        let students = zip(Self.locations, distances).map { location, distance -> WireJSON in
            guard case .object(let members) = location.wireJSON else { return .null }
            return .object(members + [("distanceKm", .number((distance * 10).rounded() / 10))])
        }
        let tree = WireJSON.object([
            ("students", .array(students)), ("total", .integer(2)), ("refreshedAt", .null), ("stale", .bool(false)),
        ])
        #expect(String(decoding: answer.serializedBytes, as: UTF8.self) == tree.serialized)
        #expect(tree.serialized.contains(#""distanceKm":12.3}"#))
    }

    @Test func cacheFileReadsBackAndKeepsJSONEncodersShape() throws {
        let refreshedAt = Date(timeIntervalSinceReferenceDate: 785_432_123.456789)
        let bytes = CachedList.fileBytes(locationsJSON: Self.locations.map(Self.json), refreshedAt: refreshedAt, unplaceable: 3)
        let expected = CachedList(locations: Self.locations, refreshedAt: refreshedAt, unplaceable: 3)
        #expect(CachedList(fileContents: Data(bytes)) == expected)
        // The shape earlier versions wrote and read with JSONEncoder/JSONDecoder, both ways.
        #expect(try JSONDecoder().decode(CachedList.self, from: Data(bytes)) == expected)
        #expect(CachedList(fileContents: try JSONEncoder().encode(expected)) == expected)
        #expect(CachedList(fileContents: Data("{\"locations\":[{}]}".utf8)) == nil)
        #expect(CachedList(fileContents: Data("not json".utf8)) == nil)
    }

    @Test func searchFoldingOfASCIIIsFoundations() {
        let ascii = String(decoding: (0x20..<0x7F).map { UInt8($0) }, as: UTF8.self)
        for text in [ascii, "Ada LOVELACE London, UK", "", "Zoë München Ｔｏｋｙｏ", "ﬁ Straße İstanbul"] {
            #expect(
                SearchText.fold(text) == text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil),
                "\(text)")
        }
    }

    /// The daemon's replies, read as bytes: each is the compact form of its own JSON (what
    /// serializing the tree wrote), and every student keeps Parse's key order.
    @Test func repliesAreCompactAndOrderedLikeTheTree() throws {
        let bed = try DaemonTestBed(students: 300, daemonArguments: ["--cache-size", "250"])
        defer { bed.tearDown() }
        try bed.login()
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"students"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"students","params":{"limit":250}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"students","params":{"limit":5,"skip":240}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"students","params":{"search":"munchen"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"students","params":{"near":{"latitude":48.85,"longitude":2.35},"limit":20}}"#,
            #"[{"jsonrpc":"2.0","id":6,"method":"students","params":{"limit":2}}]"#,
        ]
        func check(after: String) throws {
            for request in requests {
                let socket = try RawSocket(path: bed.daemon.socketPath)
                socket.send(Array((request + "\n").utf8), timeout: .seconds(20))
                shutdown(socket.fd, Int32(SHUT_WR))
                var reply = socket.receiveAll(timeout: .seconds(30))
                #expect(reply.last == UInt8(ascii: "\n"), "\(after): \(request)")
                reply.removeLast()
                let parsed = try WireJSON.parse(reply)
                #expect(parsed.serialized == String(decoding: reply, as: UTF8.self), "\(after): \(request)")
                let single = if case .array(let replies) = parsed { replies.first } else { parsed }
                let students = arrayOf(single?["result"]?["students"])
                #expect(!students.isEmpty, "\(after): \(request)")
                // Parse's alphabetical order; with `near`, the distance last.
                let near = request.contains("near")
                for student in students {
                    guard case .object(let members) = student else { continue }
                    let keys = members.map(\.0)
                    #expect((keys.last == "distanceKm") == near, "\(after): \(keys)")
                    let wireKeys = near ? Array(keys.dropLast()) : keys
                    #expect(wireKeys == wireKeys.sorted(), "\(after): \(keys)")
                }
            }
        }
        try check(after: "a refresh")
        // Loaded from the cache file by the next start.
        #expect(bed.daemon.stop() == 0)
        try bed.daemon.start()
        try check(after: "a restart")
        #expect(try bed.result("students", params(("limit", .integer(1000))))["total"] == .integer(250))
    }

    /// Pages after the first are fetched several at a time; the list still ends at the first short
    /// page, in order, without repeats.
    @Test func pagesFetchedTogetherKeepTheirOrder() throws {
        let bed = try DaemonTestBed(students: 2300, daemonArguments: ["--cache-size", "5000"])
        defer { bed.tearDown() }
        try bed.login()
        let all = try bed.result("students", params(("limit", .integer(10_000))))
        let students = arrayOf(all["students"])
        #expect(students.count == 2300)
        #expect(Set(students.compactMap { $0["objectId"]?.stringValue }).count == 2300)
        let updated = students.compactMap { $0["updatedAt"]?.stringValue }
        #expect(updated == updated.sorted(by: >))
        #expect(try bed.result("status")["students"]?["count"] == .integer(2300))
    }
}
