import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC

/// The result of `map`: a picture drawn from the cached students' positions, its pins written from
/// those students as the cache holds them.
///
/// The renderer is given where each student is and nothing more (`positions`); the names and links
/// are read in place when the answer is written. A pin apiece holding them (a `MapPin` per student,
/// then a `PlacedPin` per pin in view, each copied again on its way out) cost a third of the daemon's
/// samples for a 10,000-pin map (perf), and a tree of `WireJSON` values 40 % of the round trip before
/// that: the answer is written straight to bytes.
struct MapAnswer {
    var picture: MapPicture
    /// The students the picture was drawn from, in the order of `positions(of:accountKey:)`.
    var students: StudentList
    /// The account whose pin is `mine`.
    var accountKey: String?
    /// The closest this map's width draws.
    var maxZoom: Double
    /// When `near` named a place: the place it was found to be.
    var near: String?

    /// Where each student is, for the renderer: the order `picture.placements` indexes.
    static func positions(of students: StudentList, accountKey: String?) -> [PinPosition] {
        // Through a buffer: read by subscript, each entry was copied whole (its strings retained).
        students.entries.withUnsafeBufferPointer { entries in
            entries.map { PinPosition(latitude: $0.location.latitude, longitude: $0.location.longitude, mine: $0.location.uniqueKey == accountKey) }
        }
    }

    var view: MapResult.View {
        let bounds = picture.view.bounds
        return MapResult.View(
            west: bounds.west, south: bounds.south, east: bounds.east, north: bounds.north, zoom: picture.view.zoom,
            maxZoom: maxZoom, place: picture.placeName)
    }

    /// The text a `MapResult` of the same picture and students gives as `wireJSON.serialized`,
    /// written straight to bytes (MapAnswerBytesTests holds the two together).
    var serializedBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(
            picture.rows.reduce(0) { $0 + $1.utf8.count + 3 } + picture.styles.reduce(0) { $0 + $1.utf8.count + 3 }
                + picture.placements.count * 256 + 128)
        output.append(literal: #"{"rows":["#)
        Self.writeStrings(picture.rows, into: &output)
        output.append(literal: #"],"styles":["#)
        Self.writeStrings(picture.styles, into: &output)
        output.append(literal: #"],"pins":["#)
        students.entries.withUnsafeBufferPointer { entries in
            for (index, placement) in picture.placements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writePin(placement, entries[placement.index].location, accountKey: accountKey, into: &output)
            }
        }
        output.append(literal: #"],"outside":"#)
        output.append(integer: picture.outside)
        let view = view
        output.append(literal: #","view":{"west":"#)
        output.append(number: view.west)
        output.append(literal: #","south":"#)
        output.append(number: view.south)
        output.append(literal: #","east":"#)
        output.append(number: view.east)
        output.append(literal: #","north":"#)
        output.append(number: view.north)
        output.append(literal: #","zoom":"#)
        output.append(number: view.zoom)
        output.append(literal: #","maxZoom":"#)
        output.append(number: view.maxZoom)
        output.append(literal: #","place":"#)
        WireJSON.writeString(view.place, into: &output)
        output.append(literal: "}")
        if let near {
            output.append(literal: #","near":"#)
            WireJSON.writeString(near, into: &output)
        }
        output.append(literal: "}")
        return output
    }

    /// One pin as `PlacedPin.wireJSON` lists it: its number and cell, then the student, flat.
    private static func writePin(
        _ placement: PinPlacement, _ location: borrowing StudentLocation, accountKey: String?, into output: inout [UInt8]
    ) {
        output.append(literal: #"{"n":"#)
        output.append(integer: placement.n)
        output.append(literal: #","row":"#)
        output.append(integer: placement.row)
        output.append(literal: #","col":"#)
        output.append(integer: placement.col)
        output.append(literal: #","objectId":"#)
        WireJSON.writeString(location.objectId, into: &output)
        output.append(literal: #","firstName":"#)
        WireJSON.writeString(location.firstName, into: &output)
        output.append(literal: #","lastName":"#)
        WireJSON.writeString(location.lastName, into: &output)
        output.append(literal: #","mapString":"#)
        WireJSON.writeString(location.mapString, into: &output)
        output.append(literal: #","mediaURL":"#)
        WireJSON.writeString(location.mediaURL, into: &output)
        output.append(literal: #","latitude":"#)
        output.append(number: location.latitude)
        output.append(literal: #","longitude":"#)
        output.append(number: location.longitude)
        output.append(literal: location.uniqueKey == accountKey ? #","mine":true}"# : #","mine":false}"#)
    }

    private static func writeStrings(_ strings: [String], into output: inout [UInt8]) {
        for (index, text) in strings.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            WireJSON.writeString(text, into: &output)
        }
    }
}

extension [UInt8] {
    fileprivate mutating func append(literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    fileprivate mutating func append(integer: Int) {
        append(contentsOf: String(integer).utf8)
    }

    fileprivate mutating func append(number: Double) {
        append(contentsOf: WireJSON.format(number).utf8)
    }
}
