import Foundation
import OnTheMapModels
import Testing

/// The byte writer and the fast reader used on hot paths give what `wireJSON` and `JSONDecoder` give.
@Suite("Student locations to and from bytes, without JSONDecoder")
struct WireBytesTests {
    static let fixture: Data = {
        let url = Bundle.module.url(forResource: "messy-locations", withExtension: "json", subdirectory: "Fixtures")!
        return try! Data(contentsOf: url)
    }()

    static let awkward: [StudentLocation] = [
        StudentLocation(
            objectId: "a\"b\\c", uniqueKey: "42", firstName: "Zoë\n\t\u{1}", lastName: "東京 🗺", mapString: "São Paulo, Brasil",
            mediaURL: "https://example.org/a/b?c=d&e", latitude: -23.5505, longitude: -46.6333,
            createdAt: Date(timeIntervalSince1970: -0.5), updatedAt: Date(timeIntervalSince1970: 4_102_444_800.999)),
        StudentLocation(
            objectId: "x", uniqueKey: "", firstName: "", lastName: "", mapString: "", mediaURL: "", latitude: 0,
            longitude: 180, createdAt: nil, updatedAt: nil),
        StudentLocation(
            objectId: "y", uniqueKey: "k", firstName: "F", lastName: "L", mapString: "M", mediaURL: "U", latitude: 1e-7,
            longitude: -180, createdAt: nil, updatedAt: Date(timeIntervalSince1970: 1_424_826_638.103)),
        StudentLocation(
            objectId: "z", uniqueKey: "k", firstName: "F", lastName: "L", mapString: "M", mediaURL: "U", latitude: 90,
            longitude: 12.000001, createdAt: Date(timeIntervalSince1970: 1_424_826_638.103), updatedAt: nil),
    ]

    @Test func writerGivesTheBytesOfWireJSON() throws {
        let decoded = try JSONDecoder().decode(StudentLocationList.self, from: Self.fixture).results
        for location in decoded + Self.awkward {
            var bytes: [UInt8] = []
            location.writeWireJSON(into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == location.wireJSON.serialized)
        }
        let list = StudentLocationList(results: decoded + Self.awkward)
        #expect(String(decoding: list.wireJSONBytes, as: UTF8.self) == list.wireJSON.serialized)
    }

    @Test func readerAgreesWithJSONDecoderOnMessyRecords() throws {
        let fast = try #require(StudentLocationList(wireBytes: Self.fixture))
        #expect(fast == (try JSONDecoder().decode(StudentLocationList.self, from: Self.fixture)))
        #expect(fast.results.count == 3 && fast.unplaceable.count == 5)
    }

    /// Records one at a time, each in a list of its own; `fastReads` says whether the fast reader
    /// is expected to read it (otherwise it answers nil and JSONDecoder decides).
    @Test(arguments: [
        (#"{"objectId":" id ","latitude":"  12.5 ","longitude":-0,"uniqueKey":true,"firstName":[1],"lastName":{"a":1}}"#, true),
        (#"{"objectId":"n","latitude":1e2,"longitude":1E-2,"uniqueKey":-0,"mediaURL":null,"mediaUrl":"u"}"#, true),
        (#"{"objectId":"n","latitude":"0x1p3","longitude":"nan"}"#, true),
        (#"{"objectId":"n","latitude":"1e400","longitude":2}"#, true),
        (#"{"objectId":"n","latitude":-90.5,"longitude":2}"#, true),
        (#"{"latitude":true,"longitude":2}"#, true),
        (#"{"objectId":"\u00e9\ud83d\uddfa","latitude":1,"longitude":2,"createdAt":"2015-02-25T01:10:38Z","updatedAt":" 2015-02-25T01:10:38.5Z "}"#, true),
        (#"{"objectId":"n","latitude":1,"longitude":2,"createdAt":12345,"updatedAt":"yesterday"}"#, true),
        (#"{"objectId":"n","latitude":1,"longitude":2,"unknown":1,"unknown":2}"#, true),
        (#"null"#, true),
        (#"[1,2]"#, true),
        (#"{"objectId":"first","objectId":"second","latitude":1,"longitude":2}"#, false),
        (#"{"objectId":"n","uniqueKey":12.5,"latitude":1,"longitude":2}"#, false),
        (#"{"objectId":"n","uniqueKey":1e30,"latitude":1,"longitude":2}"#, false),
        (#"{"objectId":"n","latitude":1e400,"longitude":2}"#, false),
    ])
    func readerAgreesRecordByRecord(record: String, fastReads: Bool) throws {
        let body = Data((#"{"other":[],"results":[{"objectId":"before","latitude":1,"longitude":1},"# + record + "]}").utf8)
        let reference = try JSONDecoder().decode(StudentLocationList.self, from: body)
        let fast = StudentLocationList(wireBytes: body)
        #expect((fast != nil) == fastReads)
        if let fast { #expect(fast == reference, "\(record)") }
    }

    @Test func notAListIsLeftToJSONDecoder() {
        for body in [#"{"error":"nope"}"#, #"{"results":{}}"#, #"{"results":[],"results":[]}"#, "[]", "{", ""] {
            #expect(StudentLocationList(wireBytes: Array(body.utf8)) == nil, "\(body)")
        }
    }

    @Test func writtenListsReadBackUnchanged() throws {
        let locations = (0..<1000).map { (index: Int) -> StudentLocation in
            let offset = Double(index)
            return StudentLocation(
                objectId: "id\(index)", uniqueKey: "\(index * 7)", firstName: "Name \(index)", lastName: "Ünïcode \(index)",
                mapString: "City \(index), Country", mediaURL: "https://example.org/\(index)",
                latitude: Double(index % 180) - 89.5 + 0.123456, longitude: Double(index % 360) - 179.75,
                createdAt: Date(timeIntervalSince1970: 1_400_000_000.001 + offset),
                updatedAt: Date(timeIntervalSince1970: 1_500_000_000.999 + offset))
        }
        let list = StudentLocationList(results: locations)
        #expect(StudentLocationList(wireBytes: list.wireJSONBytes) == list)
    }
}
