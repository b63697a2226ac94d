import OnTheMapModels

extension MapResult {
    /// The text `wireJSON.serialized` gives, written straight to bytes. A map of 10,000 pins built a
    /// tree of 120,000 values only to walk and free it: 40% of a 50 ms `map` round trip
    /// (docs/benchmarks.md). A test holds the two writers together.
    public var serializedBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(
            rows.reduce(0) { $0 + $1.utf8.count + 3 } + styles.reduce(0) { $0 + $1.utf8.count + 3 } + pins.count * 256 + 128)
        output.append(literal: #"{"rows":["#)
        Self.writeStrings(rows, into: &output)
        output.append(literal: #"],"styles":["#)
        Self.writeStrings(styles, into: &output)
        output.append(literal: #"],"pins":["#)
        // By index: a loop over the pins copies each one (its five strings retained and released).
        for index in pins.indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            pins[index].write(into: &output)
        }
        output.append(literal: #"],"outside":"#)
        output.append(integer: outside)
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

    private static func writeStrings(_ strings: [String], into output: inout [UInt8]) {
        for (index, text) in strings.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            WireJSON.writeString(text, into: &output)
        }
    }
}

extension PlacedPin {
    /// The members of `wireJSON`, in its order.
    fileprivate func write(into output: inout [UInt8]) {
        output.append(literal: #"{"n":"#)
        output.append(integer: n)
        output.append(literal: #","row":"#)
        output.append(integer: row)
        output.append(literal: #","col":"#)
        output.append(integer: col)
        output.append(literal: #","objectId":"#)
        WireJSON.writeString(pin.objectId, into: &output)
        output.append(literal: #","firstName":"#)
        WireJSON.writeString(pin.firstName, into: &output)
        output.append(literal: #","lastName":"#)
        WireJSON.writeString(pin.lastName, into: &output)
        output.append(literal: #","mapString":"#)
        WireJSON.writeString(pin.mapString, into: &output)
        output.append(literal: #","mediaURL":"#)
        WireJSON.writeString(pin.mediaURL, into: &output)
        output.append(literal: #","latitude":"#)
        output.append(number: pin.latitude)
        output.append(literal: #","longitude":"#)
        output.append(number: pin.longitude)
        output.append(literal: pin.mine ? #","mine":true}"# : #","mine":false}"#)
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
