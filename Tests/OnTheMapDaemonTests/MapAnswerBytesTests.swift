import Foundation
import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// `map`'s answer is written straight to bytes from the cached students its pins were placed from;
/// they must be the text the typed result's `WireJSON` tree gives, and read back as that result.
@Suite("map's answer written as bytes", .ownThreads)
struct MapAnswerBytesTests {
    static let awkward = "Zoë \"Q\" O'Brien\\\n\t\u{1}\u{7f} 東京 ⣿"

    static let students = StudentList([
        StudentLocation(
            objectId: "a1", uniqueKey: "me", firstName: awkward, lastName: "", mapString: "Lima, Perú",
            mediaURL: "https://x.example/?q=1&r=\"2\"", latitude: -12.0464, longitude: -77.0428, createdAt: nil,
            updatedAt: Date(timeIntervalSince1970: 30)),
        StudentLocation(
            objectId: "", uniqueKey: "k2", firstName: "B", lastName: "C", mapString: "", mediaURL: "javascript:alert(1)",
            latitude: 0, longitude: 179.99, createdAt: nil, updatedAt: Date(timeIntervalSince1970: 20)),
        // Out of the zoomed view below: counted in `outside`, not listed.
        StudentLocation(
            objectId: "far", uniqueKey: "k3", firstName: "D", lastName: "E", mapString: "Nowhere", mediaURL: "",
            latitude: 70, longitude: 100, createdAt: nil, updatedAt: Date(timeIntervalSince1970: 10)),
    ])

    static func answer(_ request: MapViewRequest, near: String?) -> MapAnswer {
        let picture = MapRenderer.render(
            width: 40, height: 12, request: request, charset: .braille,
            pins: MapAnswer.positions(of: students, accountKey: "me"))
        return MapAnswer(picture: picture, students: students, accountKey: "me", maxZoom: 204.8, near: near)
    }

    /// The typed result a client reads the answer into, made the ordinary way: a `MapPin` for each
    /// student placed, in a `MapResult`.
    static func typedResult(of answer: MapAnswer) -> MapResult {
        let pins = answer.picture.placements.map { placement in
            PlacedPin(
                n: placement.n, row: placement.row, col: placement.col,
                pin: MapPin(answer.students.entries[placement.index].location, accountKey: answer.accountKey))
        }
        return MapResult(
            rows: answer.picture.rows, styles: answer.picture.styles, pins: pins, outside: answer.picture.outside,
            view: answer.view, near: answer.near)
    }

    @Test(arguments: [(MapViewRequest.world, String?.none), (.center(latitude: -5, longitude: -120, zoom: 1.6), "Lima, Lima, Peru")])
    func bytesAreTheTypedResultsText(request: MapViewRequest, near: String?) throws {
        let answer = Self.answer(request, near: near)
        let result = Self.typedResult(of: answer)
        #expect(String(decoding: answer.serializedBytes, as: UTF8.self) == result.wireJSON.serialized)

        // The pins are the students', as clients get them: the hostile link dropped, yours marked.
        let lima = try #require(result.pins.first { $0.pin.objectId == "a1" })
        #expect(lima.pin.firstName == Self.awkward && lima.pin.mine)
        if let other = result.pins.first(where: { $0.pin.objectId == "" }) {
            #expect(other.pin.mediaURL == "" && !other.pin.mine)
        }
        #expect(result.pins.count + result.outside == 3)
        #expect(result.pins.contains { $0.pin.objectId == "far" } == (near == nil), "the zoomed view leaves one out")
        #expect(result.pins.map(\.n) == Array(1...result.pins.count))

        // And a client reads back what was written.
        let read = MapResult(wireJSON: try WireJSON.parse(answer.serializedBytes))
        #expect(read.pins == result.pins)
        #expect(read.rows == result.rows && read.styles == result.styles && read.view == result.view)
        #expect(read.outside == result.outside && read.near == near)
    }

    @Test func anEmptyCacheToo() {
        let picture = MapRenderer.render(width: 20, height: 6, request: .pins, charset: .ascii, pins: [], labels: false)
        let answer = MapAnswer(picture: picture, students: .empty, accountKey: nil, maxZoom: 102.4, near: nil)
        let result = Self.typedResult(of: answer)
        #expect(result.pins.isEmpty)
        #expect(String(decoding: answer.serializedBytes, as: UTF8.self) == result.wireJSON.serialized)
    }
}
