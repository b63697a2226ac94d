import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// The cached list keeps each pin's JSON, encoded once; answers that list pins are written around
/// those bytes (`PinListAnswer`). What a client reads back must be what the typed result says.
@Suite("Answers written from the cache's encoded pins", .ownThreads)
struct StudentAnswerBytesTests {
    static let locations: [StudentLocation] = [
        StudentLocation(
            objectId: "a\"1", uniqueKey: "k1", firstName: "Zoë", lastName: "O'Brien\n\"Jr\"", mapString: "São Paulo, Brasil",
            mediaURL: "https://example.org/?q=1&r=/", latitude: -23.5505, longitude: -46.6333,
            createdAt: Date(timeIntervalSince1970: 1_424_826_638.103), updatedAt: Date(timeIntervalSince1970: 1_425_939_890.315)),
        StudentLocation(
            objectId: "b2", uniqueKey: "mine", firstName: "Ada", lastName: "東京", mapString: "Tokyo", mediaURL: "javascript:alert(1)",
            latitude: 0, longitude: 180, createdAt: nil, updatedAt: nil),
    ]

    static let list = StudentList(locations, accountKey: "mine")

    /// A list answer's bytes, read back strictly.
    static func read<T: Decodable>(_ result: RPCResult, as type: T.Type) throws -> T {
        guard case .encoded(let bytes) = result else { throw RPCError.internalError("not encoded") }
        return try WireCoding.decode(type, from: bytes)
    }

    @Test func theListIsNewestFirstWithOnlyWebLinksAndYourPinMarked() throws {
        #expect(Self.list.entries.map(\.location.objectId) == ["a\"1", "b2"])
        #expect(Self.list.entries.map(\.location.mediaURL) == ["https://example.org/?q=1&r=/", ""])
        #expect(Self.list.entries.map(\.mine) == [false, true])
        #expect(Self.list.entries[0].searchKey == "zoe o brien jr sao paulo brasil")
        for entry in Self.list.entries {
            #expect(try WireCoding.decode(StudentPin.self, from: try #require(entry.pinJSON)) == entry.pin)
        }
    }

    @Test(arguments: [(Date?.some(Date(timeIntervalSince1970: 1_700_000_000.5)), false), (nil, true)])
    func aStudentsAnswerIsItsTypedResult(refreshedAt: Date?, stale: Bool) throws {
        let selection = StudentSelection(StudentsParams())
        let answer = try selection.answer(from: Self.list, refreshedAt: refreshedAt, stale: stale, source: .cache, limitedTo: nil)
        let expected = StudentsResult(
            students: Self.list.entries.map(\.pin), total: 2, refreshedAt: refreshedAt.map(WireTimestamp.roundedToMilliseconds),
            stale: stale)
        #expect(try Self.read(answer, as: StudentsResult.self) == expected)
    }

    @Test func nearAnswersCarryTheirDistancesNearestFirst() throws {
        let selection = StudentSelection(StudentsParams(near: .init(latitude: 0, longitude: 179)))
        let answer = try selection.answer(from: Self.list, refreshedAt: nil, stale: false, source: .server, limitedTo: 5)
        let result = try Self.read(answer, as: StudentsResult.self)
        #expect(result.students.map(\.student.objectId) == ["b2", "a\"1"])
        #expect(result.students[0].distanceKm == 111.2)
        #expect(result.source == .server && result.limitedTo == 5)
    }

    /// A page past the first (`skip`) pairs each student with its own distance.
    @Test func aPageOfNearAnswersKeepsEachDistanceWithItsStudent() throws {
        let locations = (0..<12).map { index in
            StudentLocation(
                objectId: "s\(index)", uniqueKey: "k\(index)", firstName: "S", lastName: "\(index)", mapString: "Sea",
                mediaURL: "https://example.org/\(index)", latitude: Double(index), longitude: 0, createdAt: nil, updatedAt: nil)
        }
        let list = StudentList(locations.shuffled(), accountKey: "none")
        let near = StudentsParams.Near(latitude: 0, longitude: 0)
        let all = try Self.read(
            StudentSelection(StudentsParams(limit: 12, near: near)).answer(from: list, refreshedAt: nil, stale: false, source: .cache, limitedTo: nil),
            as: StudentsResult.self)
        let pageAnswer = try StudentSelection(StudentsParams(limit: 4, skip: 5, near: near))
            .answer(from: list, refreshedAt: nil, stale: false, source: .cache, limitedTo: nil)
        let page = try Self.read(pageAnswer, as: StudentsResult.self)
        // Written as `JSONEncoder` writes a number (the typed path): a whole distance without ".0".
        guard case .encoded(let bytes) = pageAnswer else { throw RPCError.internalError("not encoded") }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#"{"distanceKm":556,"#))
        #expect(page.students.map(\.student.objectId) == ["s5", "s6", "s7", "s8"])
        #expect(page.students.map(\.distanceKm) == Array(all.students[5..<9]).map(\.distanceKm))
        #expect(page.students.map(\.distanceKm) == [556, 667.2, 778.4, 889.6], "\(page.students.map(\.distanceKm))")
        #expect(page.total == 12)
    }

    @Test func aSearchFoldsAccentsAndCase() throws {
        for search in ["SAO paulo", "são", "zoe  brien"] {
            let answer = try StudentSelection(StudentsParams(search: search)).answer(
                from: Self.list, refreshedAt: nil, stale: false, source: .cache, limitedTo: nil)
            #expect(try Self.read(answer, as: StudentsResult.self).students.map(\.student.objectId) == ["a\"1"], "\(search)")
        }
    }

    @Test func aPostedPinGoesFirstAndTheCacheKeepsItsSize() {
        var moved = Self.locations[1]
        moved.mapString = "Lima"
        moved.mediaURL = "https://ada.example"
        moved.updatedAt = Date()
        let placed = Self.list.placing(moved, accountKey: "mine", capacity: 2)
        #expect(placed.entries.map(\.location.mapString) == ["Lima", "São Paulo, Brasil"])
        var new = moved
        new.objectId = "c3"
        new.updatedAt = Date(timeIntervalSinceNow: 1)
        #expect(placed.placing(new, accountKey: "mine", capacity: 2).entries.map(\.location.objectId) == ["c3", "b2"])
        // A pin older than another in the list (placed again in a list a refresh read after others
        // posted) goes in its place, newest first, not first.
        var older = Self.locations[1]
        older.updatedAt = Date(timeIntervalSince1970: 1_000_000_000)
        #expect(placed.placing(older, accountKey: "mine", capacity: 2).entries.map(\.location.objectId) == ["a\"1", "b2"])
    }

    /// A refresh keeps what was made of a pin that came back as it was, and makes anew only what
    /// changed: the moved pin, and every pin when the account (so "mine") is another.
    @Test func aRefreshReencodesOnlyWhatChanged() throws {
        var moved = Self.locations[0]
        moved.mapString = "Lima"
        let refreshed = StudentList([moved, Self.locations[1]], accountKey: "mine", reusing: Self.list)
        func storage(_ list: StudentList, _ id: String) -> UnsafeRawPointer? {
            list.entries.first { $0.location.objectId == id }?.pinJSON?.withUnsafeBytes { $0.baseAddress }
        }
        #expect(storage(refreshed, "b2") != nil && storage(refreshed, "b2") == storage(Self.list, "b2"), "the unchanged pin was encoded again")
        #expect(storage(refreshed, "a\"1") != storage(Self.list, "a\"1"))
        let text = try #require(refreshed.entries.first { $0.location.objectId == "a\"1" }?.pinJSON).map { Character(UnicodeScalar($0)) }
        #expect(String(text).contains("Lima"))
        let otherAccount = StudentList(Self.locations, accountKey: "k1", reusing: Self.list)
        #expect(otherAccount.entries.map(\.mine) == [true, false])
        #expect(storage(otherAccount, "b2") != storage(Self.list, "b2"))
    }

    @Test func cacheFileReadsBack() throws {
        let file = StudentsFile(
            locations: Self.locations, refreshedAt: Date(timeIntervalSince1970: 1_700_000_000.125),
            tags: ListTags(count: 2000, first: "\"abc\"", last: ListTags.Page(skip: 1000, etag: "\"def\"")), skipped: 3,
            skippedWhy: "3 records left out: firstName is missing (3)")
        #expect(StudentsFile(fileContents: try file.bytes()) == file)
        #expect(StudentsFile(fileContents: Array("{\"locations\":[{}]}".utf8)) == nil)
        #expect(StudentsFile(fileContents: Array("not json".utf8)) == nil)
    }

    /// The daemon's replies, read as bytes: one line of compact JSON each, read back strictly as the
    /// declared result, after a refresh and after a restart that loaded the cache file.
    @Test func repliesAreCompactAndReadBackStrictly() throws {
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
                #expect(!reply.contains(UInt8(ascii: "\n")), "\(after): one line")
                let single: StudentsResult?
                if request.hasPrefix("[") {
                    single = try WireCoding.decode([RPCReply<StudentsResult>].self, from: reply).first?.result
                } else {
                    single = try WireCoding.decode(RPCReply<StudentsResult>.self, from: reply).result
                }
                let students = try #require(single, "\(after): \(request)").students
                #expect(!students.isEmpty, "\(after): \(request)")
                #expect(students.allSatisfy { ($0.distanceKm != nil) == request.contains("near") }, "\(after): \(request)")
            }
        }
        try check(after: "a refresh")
        // Loaded from the cache file by the next start.
        #expect(bed.daemon.stop() == 0)
        try bed.daemon.start()
        try check(after: "a restart")
        // More than the cache holds: the server's 300, for this answer.
        #expect(try bed.result("students", params(("limit", .integer(1000))))["total"] == .integer(300))
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
