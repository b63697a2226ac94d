/// Student locations written straight to bytes, for answers that carry thousands of them.
///
/// The bytes are exactly those of `wireJSON.serialized` (a test holds the two together), without the
/// tree of `WireJSON` values and the timestamp strings in between: building that tree took two
/// thirds of a 10,000-location `students` answer (docs/benchmarks.md).
extension StudentLocation {
    /// Appends the location's compact JSON, keys in Parse's order, as `wireJSON.write(into:)` does.
    public func writeWireJSON(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        if let createdAt {
            output.append(contentsOf: #""createdAt":""#.utf8)
            WireTimestamp.writeMilliseconds(createdAt, into: &output)
            output.append(contentsOf: #"","#.utf8)
        }
        output.append(contentsOf: #""firstName":"#.utf8)
        WireJSON.writeString(firstName, into: &output)
        output.append(contentsOf: #","lastName":"#.utf8)
        WireJSON.writeString(lastName, into: &output)
        output.append(contentsOf: #","latitude":"#.utf8)
        output.append(contentsOf: WireJSON.format(latitude).utf8)
        output.append(contentsOf: #","longitude":"#.utf8)
        output.append(contentsOf: WireJSON.format(longitude).utf8)
        output.append(contentsOf: #","mapString":"#.utf8)
        WireJSON.writeString(mapString, into: &output)
        output.append(contentsOf: #","mediaURL":"#.utf8)
        WireJSON.writeString(mediaURL, into: &output)
        output.append(contentsOf: #","objectId":"#.utf8)
        WireJSON.writeString(objectId, into: &output)
        output.append(contentsOf: #","uniqueKey":"#.utf8)
        WireJSON.writeString(uniqueKey, into: &output)
        if let updatedAt {
            output.append(contentsOf: #","updatedAt":""#.utf8)
            WireTimestamp.writeMilliseconds(updatedAt, into: &output)
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Appends `[location,…]`.
    public static func writeWireJSON(_ locations: some Sequence<StudentLocation>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        var first = true
        for location in locations {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            location.writeWireJSON(into: &output)
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension StudentLocationList {
    /// `{"results":[…]}`: the bytes of `wireJSON.serialized`.
    public var wireJSONBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(32 + results.count * 300)
        output.append(contentsOf: #"{"results":"#.utf8)
        StudentLocation.writeWireJSON(results, into: &output)
        output.append(UInt8(ascii: "}"))
        return output
    }
}
