import OnTheMapModels

/// Writes a result that lists cached pins (`students`, `map`): the result is a typed value encoded
/// through `WireCoding` with its pin list left empty, and the list is then filled with the pins'
/// JSON as the cache encoded it (`StudentList.Entry.pinJSON`), each with the members the request
/// adds written in front (a distance, a cell).
///
/// Why: encoding 10,000 pins per request took about 60 ms of CPU (`JSONEncoder`, 0.5 µs a value);
/// written from the cache's bytes, a `students {limit: 10000}` answer is a copy. So the members a
/// request adds are written here beside `StudentPin.encode`'s keys, for the same reason: encoding
/// each through `JSONEncoder` would add 10,000 encodings to a map. A test holds the bytes to the
/// typed result's own encoding, read back (StudentAnswerBytesTests).
enum PinListAnswer {
    /// `result` encoded, its array `key` (written `"key":[]`, empty) holding `pins`.
    static func bytes(_ result: some Encodable, key: String, pins: [[UInt8]]) throws -> [UInt8] {
        let encoded = try WireCoding.encode(result)
        // The keys' quotes are bare only around keys: inside a string every quote is escaped, so
        // `"key":[]` is found only where the result holds that member.
        // A plain scan: the result is a few hundred bytes, and `firstRange(of:)` (generic, outside
        // this module) took a seventh of a `students` request's CPU.
        let marker = Array("\"\(key)\":[]".utf8)
        guard let found = encoded.indices.first(where: { encoded[$0...].starts(with: marker) }) else {
            preconditionFailure("the result has no empty \(key) member")
        }
        let start = found + marker.count - 1  // at the `]`
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count + pins.reduce(0) { $0 + $1.count + 1 })
        output += encoded[..<start]
        for (index, pin) in pins.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output += pin
        }
        output += encoded[start...]
        return output
    }

    /// A pin's JSON with `members` (already JSON: `"distanceKm":12.3`) written first inside it.
    static func pin(_ pinJSON: [UInt8], adding members: String) -> [UInt8] {
        Array("{\(members),".utf8) + pinJSON.dropFirst()
    }

    /// The members a map adds to a pin: its cell (`MapCell`, flat in `StudentPin`).
    static func members(of cell: MapCell) -> String {
        #""col":\#(cell.col),"n":\#(cell.n),"row":\#(cell.row)"#
    }

    /// The member `students {near}` adds to a pin: its distance, written as `JSONEncoder` writes it.
    static func members(distanceKm: Double) -> String {
        #""distanceKm":\#(WireJSON.format(distanceKm))"#
    }
}
