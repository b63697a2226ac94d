import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// `map`'s answer is written straight to bytes; they must be the text the `WireJSON` tree gives.
@Suite("map's result written as bytes", .ownThreads)
struct MapResultBytesTests {
    @Test func bytesAreTheTreesText() {
        let awkward = "Zoë \"Q\" O'Brien\\\n\t\u{1}\u{7f} 東京 ⣿"
        let result = MapResult(
            rows: ["⠀⣿*2", "ab\"c"], styles: [" lbp", "mc  "],
            pins: [
                PlacedPin(
                    n: 1, row: 0, col: 2,
                    pin: MapPin(
                        objectId: "a1", firstName: awkward, lastName: "", mapString: "Lima, Perú",
                        mediaURL: "https://x.example/?q=1&r=\"2\"", latitude: -12.0464, longitude: -77.0428, mine: true)),
                PlacedPin(
                    n: 12, row: 59, col: 199,
                    pin: MapPin(
                        objectId: "", firstName: "B", lastName: "C", mapString: "", mediaURL: "", latitude: 0, longitude: 180,
                        mine: false)),
            ],
            outside: 7, view: .init(west: -180, south: -85.0511287798066, east: 180.5, north: 85, zoom: 1.25, maxZoom: 204.8, place: "Zoë, \"Perú\""),
            near: "Lima, Lima, Peru")
        #expect(String(decoding: result.serializedBytes, as: UTF8.self) == result.wireJSON.serialized)
        // And a client reads back what was written.
        let read = MapResult(wireJSON: result.wireJSON)
        #expect(read.pins == result.pins)
        #expect(read.rows == result.rows && read.styles == result.styles && read.view == result.view)
        #expect(read.outside == 7 && read.near == "Lima, Lima, Peru")
    }

    @Test func anEmptyMapToo() {
        let result = MapResult(rows: [], styles: [], pins: [], view: .init(west: 0, south: 0, east: 0, north: 0, zoom: 1))
        #expect(String(decoding: result.serializedBytes, as: UTF8.self) == result.wireJSON.serialized)
    }
}
