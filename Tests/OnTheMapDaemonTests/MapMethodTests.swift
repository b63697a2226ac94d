import Foundation
import OnTheMapClient
import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Synchronization
import Testing

/// `map` and `exportMap` through the real daemon, against the real server's demo students.
@Suite("map method", .ownThreads, .serialized)
final class MapMethodTests {
    let bed: DaemonTestBed

    init() throws {
        bed = try DaemonTestBed(students: 150, daemonArguments: ["--cache-size", "200"])
        try bed.login()
    }

    deinit { bed.tearDown() }

    private func strings(_ value: WireJSON?) -> [String] {
        guard case .array(let elements)? = value else { return [] }
        return elements.compactMap(\.stringValue)
    }

    private func array(_ value: WireJSON?) -> [WireJSON] {
        guard case .array(let elements)? = value else { return [] }
        return elements
    }

    @Test func theWorldWithEveryPin() throws {
        let map = try bed.result("map", params(("width", .integer(120)), ("height", .integer(120))))
        let rows = strings(map["rows"])
        let styles = strings(map["styles"])
        #expect(rows.count == 120)
        #expect(styles.count == 120)
        // The cache (200) holds every student (150): none left undrawn, none said to be.
        #expect(map["limitedTo"] == nil)
        #expect(rows.allSatisfy { $0.unicodeScalars.count == 120 })
        #expect(styles.allSatisfy { $0.unicodeScalars.count == 120 })
        // A 120×120 view is taller than the world: every demo student is in it.
        let pins = array(map["pins"])
        #expect(pins.count == 150)
        #expect(pins.map { $0["n"]?.intValue ?? 0 } == Array(1...150))
        let first = pins[0]
        for key in ["n", "row", "col", "objectId", "firstName", "lastName", "mapString", "mediaURL", "latitude", "longitude", "mine"] {
            #expect(first[key] != nil, "pin has \(key)")
        }
        // Each pin's cell carries a pin code, and its glyph says how many share it.
        for pin in pins {
            let row = pin["row"]!.intValue!
            let col = pin["col"]!.intValue!
            let code = Array(styles[row])[col]
            #expect("pcm".contains(code))
            let sharing = pins.filter { $0["row"] == pin["row"] && $0["col"] == pin["col"] }.count
            // A group with a pin beside it shows "+": its count would run into the neighbour's.
            let beside = pins.contains { $0["row"] == pin["row"] && abs(($0["col"]?.intValue ?? 0) - col) == 1 }
            if code == "c" { #expect(Array(rows[row])[col] == (sharing <= 9 && !beside ? Character(String(sharing)) : "+")) }
        }
        #expect(styles.joined().contains("l"), "land")
        #expect(styles.joined().contains("b"), "coasts")
        let view = map["view"]!
        #expect(view["west"] == .number(-180))
        #expect(view["east"] == .number(180))
        #expect(view["zoom"] == .number(1))
    }

    @Test func viewsAndCharsets() throws {
        let ascii = try bed.result("map", params(("charset", .string("ascii")), ("fit", .string("pins"))))
        #expect(strings(ascii["rows"]).count == 24)
        #expect(strings(ascii["rows"]).allSatisfy { $0.utf8.count == 80 && $0.utf8.allSatisfy { $0 < 0x80 } })

        let centre = try bed.result(
            "map",
            params(("center", .object([("latitude", .number(48.1)), ("longitude", .number(11.6))])), ("zoom", .number(16))))
        #expect(centre["view"]?["zoom"] == .number(16))
        let west = centre["view"]!["west"]!.doubleValue!
        let east = centre["view"]!["east"]!.doubleValue!
        #expect(abs((west + east) / 2 - 11.6) < 1e-9)
        for pin in array(centre["pins"]) {
            #expect((west...east).contains(pin["longitude"]!.doubleValue!))
        }

        // A place, geocoded by the daemon, and coordinates as text.
        let berlin = try bed.result("map", params(("near", .string("Berlin, Germany")), ("radiusKm", .number(200))))
        let view = berlin["view"]!
        #expect(view["west"]!.doubleValue! < 13.4 && view["east"]!.doubleValue! > 13.4)
        #expect(view["south"]!.doubleValue! < 52.5 && view["north"]!.doubleValue! > 52.5)
        #expect(array(berlin["pins"]).allSatisfy { abs($0["longitude"]!.doubleValue! - 13.4) < 6 })
        let coordinates = try bed.result("map", params(("near", .string("52.52, 13.40")), ("radiusKm", .number(200))))
        #expect(abs(coordinates["view"]!["west"]!.doubleValue! - view["west"]!.doubleValue!) < 0.5)
    }

    @Test func yourOwnPinIsMarked() throws {
        _ = try bed.result(
            "postPin",
            params(
                ("mapString", .string("Reykjavík")), ("mediaURL", .string("https://ada.example")), ("latitude", .number(64.15)),
                ("longitude", .number(-21.94))))
        let map = try bed.result("map", params(("near", .object([("latitude", .number(64.15)), ("longitude", .number(-21.94))])), ("radiusKm", .number(100))))
        let mine = array(map["pins"]).filter { $0["mine"] == .bool(true) }
        #expect(mine.count == 1)
        let row = mine[0]["row"]!.intValue!
        let col = mine[0]["col"]!.intValue!
        #expect(Array(strings(map["styles"])[row])[col] == "m")
        #expect(Array(strings(map["rows"])[row])[col] == "@")
    }

    @Test func badParamsNameTheLimit() throws {
        let cases: [(WireJSON, String, String)] = [
            (params(("width", .integer(9))), "width", "between 10 and 1000"),
            (params(("width", .integer(1001))), "width", "between 10 and 1000"),
            (params(("height", .integer(4))), "height", "between 5 and 1000"),
            (params(("height", .integer(1001))), "height", "between 5 and 1000"),
            (params(("charset", .string("emoji"))), "charset", "braille"),
            (params(("fit", .string("moon"))), "fit", "world"),
            (params(("fit", .string("pins")), ("near", .string("Paris"))), "fit", "one of"),
            (params(("zoom", .number(3))), "zoom", "center"),
            (params(("center", .object([("latitude", .number(1))]))), "center.longitude", "required"),
            (params(("center", .object([("latitude", .number(1)), ("longitude", .number(2))])), ("zoom", .number(0.5))), "zoom", "between 1 and 4096"),
            (params(("near", .integer(3))), "near", "place"),
            (params(("radiusKm", .number(5))), "radiusKm", "near"),
            (params(("colour", .bool(true))), "colour", "not a parameter"),
        ]
        for (value, field, detail) in cases {
            let error = try bed.error("map", value)
            #expect(error.code == -32602, "\(value.serialized)")
            #expect(error.data?["field"] == .string(field), "\(value.serialized): \(error.message)")
            #expect(error.message.contains(detail), "\(value.serialized): \(error.message)")
        }
    }

    @Test("Names in their own style unless labels is false; the view says where it is and how close it can go")
    func labelsAndTheViewInWords() throws {
        let near = params(("near", .string("Berlin")), ("radiusKm", .number(300)), ("width", .integer(100)), ("height", .integer(30)))
        let named = try MapResult(json: try bed.result("map", near))
        #expect(named.styles.joined().contains("n"), "names are style n")
        #expect(named.rows.joined().contains("Berlin"))
        #expect(named.view.place == "Berlin, Germany")
        #expect(named.near == "Berlin, Germany", "the region Berlin is a repeat")
        #expect(named.view.maxZoom == MapView.maximumZoom(width: 100))
        #expect(named.outside + named.pins.count == 150)
        // Each name cell is a letter of a name: no pin or number lost under it.
        for placed in named.pins.compactMap(\.cell) { #expect("pcm".contains(Array(named.styles[placed.row])[placed.col])) }

        guard case .object(var members) = near else { return }
        members.append(("labels", .bool(false)))
        let plain = try MapResult(json: try bed.result("map", .object(members)))
        #expect(!plain.styles.joined().contains("n"))
        #expect(!plain.rows.joined().contains("Berlin"))
        #expect(plain.view.place == "Berlin, Germany", "the place in words does not depend on labels")
        #expect(try bed.error("map", params(("labels", .string("no")))).data?["field"] == .string("labels"))

        // One rule names a place (PlaceLabel): the view's centre as the geocoder names what it found,
        // region included.
        for place in ["Leipzig", "Toronto", "São Paulo", "Lima", "Munich", "Springfield, Illinois"] {
            let map = try MapResult(json: try bed.result("map", params(("near", .string(place)), ("width", .integer(100)), ("height", .integer(30)))))
            #expect(map.near != nil && map.view.place == map.near, "\(place): \(map.view.place) against \(map.near as Any)")
        }
        #expect(try MapResult(json: try bed.result("map", params(("near", .string("Leipzig"))))).view.place == "Leipzig, Saxony, Germany")

        // A continent is shown whole; the world has no one place.
        let europe = try MapResult(json: try bed.result("map", params(("near", .string("Europe")))))
        #expect(europe.near == "Europe")
        #expect(europe.view.west < -5 && europe.view.east > 30, "\(europe.view)")
        #expect(try MapResult(json: try bed.result("map")).view.place == "")
    }

    @Test func anUnknownPlaceIsTheGeocodersError() throws {
        let fromMap = try bed.error("map", params(("near", .string("Xyzzyville Qwrtp"))))
        let fromGeocode = try bed.error("geocode", params(("query", .string("Xyzzyville Qwrtp"))))
        #expect(fromMap.code == RPCError.placeNotFoundCode)
        #expect(fromMap.message == fromGeocode.message)
    }

    @Test func needsLogin() throws {
        _ = try bed.result("logout")
        #expect(try bed.error("map").code == RPCError.notLoggedInCode)
        #expect(try bed.error("exportMap", params(("format", .string("svg")))).code == RPCError.notLoggedInCode)
    }

    /// Another client's request is answered between one client's maps, not after all of them. Each
    /// connection has one request at work at a time, so a request of another waits at most for the
    /// map being drawn; run back to back (drawing where it held the others: an actor, the event
    /// loop), five pipelined maps would all come first. The order of arrival, not a duration.
    @Test func drawingDoesNotHoldUpOtherClients() throws {
        let maps = 5
        let busy = try bed.connect(timeout: .seconds(120))
        for id in 1...maps {
            try busy.send(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"map","params":{"width":700,"height":700}}"#)
        }
        // Each answer counted as its line arrives, before anything decodes it (a map is megabytes).
        let arrivals = Mutex<[String]>([])
        let mapsRead = DispatchGroup()
        mapsRead.enter()
        // Only that thread uses the connection from here on.
        nonisolated(unsafe) let reader = busy
        DispatchQueue.global().async {
            defer { mapsRead.leave() }
            var answered = 0
            while answered < maps {
                do {
                    guard let line = try reader.readLineBytes() else {
                        return arrivals.withLock { $0.append("closed") }
                    }
                    guard String(decoding: line.prefix(200), as: UTF8.self).contains(#""id":"#) else { continue }
                    answered += 1
                    arrivals.withLock { $0.append("map") }
                } catch {
                    return arrivals.withLock { $0.append("error: \(error)") }
                }
            }
        }
        let other = try bed.connect(timeout: .seconds(120))
        let answer = try other.call("students", params: params(("search", .string("a")), ("limit", .integer(5)))).get()
        arrivals.withLock { $0.append("students") }
        #expect(answer["students"] != nil)
        mapsRead.wait()
        let order = arrivals.withLock { $0 }
        #expect(order.filter { $0 == "map" }.count == maps, "\(order)")
        let before = try #require(order.firstIndex(of: "students"), "\(order)")
        #expect(before <= 2, "the students answer came after \(before) of \(maps) maps: \(order)")
    }

    @Test func exportedDocumentsHoldEveryStudent() throws {
        let html = try bed.result("exportMap", params(("format", .string("html"))))
        #expect(html["students"] == .integer(150))
        let page = html["document"]!.stringValue!
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.components(separatedBy: "data-object-id=").count - 1 == 150)
        #expect(page.components(separatedBy: "class=\"marker mine\"").count - 1 == 0)
        // Nothing from elsewhere: the only URLs are the students' links and the SVG namespace.
        let urls = page.matches(of: /(?:src|href)\s*=\s*"([^"]*)"/).map { String($0.1) }
        #expect(urls.isEmpty, "\(urls.prefix(3))")
        #expect(!page.contains("@import") && !page.contains("url("))

        let svg = try bed.result("exportMap", params(("format", .string("svg"))))
        let image = svg["document"]!.stringValue!
        #expect(image.hasPrefix("<?xml"))
        #expect(image.components(separatedBy: "data-object-id=").count - 1 == 150)
        #expect(try bed.error("exportMap", params(("format", .string("pdf")))).data?["field"] == .string("format"))
    }
}
