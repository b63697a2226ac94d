#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading `{"results":[…]}` through `WireJSON.parse` instead of `JSONDecoder`.
///
/// The records are read by the same lenient rules as `init(from:)` (StudentLocation+LenientDecoding);
/// a test holds the two together on messy records. `JSONDecoder` spent ~20 ms per 1,000 records here,
/// most of it in its generic containers and in the errors `try?` builds for every field it probes.
/// Whatever this reader does not handle the way `JSONDecoder` would (text that is not JSON as
/// `WireJSON.parse` reads it, a key given twice, a text field sent as a fractional number) makes it
/// answer nil, and the caller decodes with `JSONDecoder` as before.
extension StudentLocationList {
    /// The list in `bytes` (a JSON object with a `results` array), or nil: then use `JSONDecoder`.
    public init?(wireBytes bytes: some Collection<UInt8>) {
        guard case .array(let records)? = (try? WireJSON.parse(bytes))?.onlyMember("results") else { return nil }
        self.init(wireRecords: records)
    }

    /// The list made of `records`, the elements of a `results` array already parsed; nil when one
    /// of them needs `JSONDecoder`'s own judgement.
    public init?(wireRecords records: [WireJSON]) {
        var results: [StudentLocation] = []
        results.reserveCapacity(records.count)
        var unplaceable: [UnplaceableRecord] = []
        for (index, element) in records.enumerated() {
            guard case .object(let fields) = element else {
                unplaceable.append(UnplaceableRecord(index: index, objectId: nil, reason: "not a location object"))
                continue
            }
            guard let read = LenientFields.location(from: fields) else { return nil }
            switch read {
            case .success(let location): results.append(location)
            case .failure(var problem):
                problem.index = index
                unplaceable.append(problem)
            }
        }
        self.init(results: results, unplaceable: unplaceable)
    }
}

extension WireJSON {
    /// The value of `key` when this is an object holding it exactly once (`JSONDecoder` decides
    /// between duplicates by rules of its own).
    public func onlyMember(_ key: String) -> WireJSON? {
        guard case .object(let members) = self else { return nil }
        var found: WireJSON?
        for (name, value) in members where name == key {
            guard found == nil else { return nil }
            found = value
        }
        return found
    }
}

/// One record's fields of interest, read as `KeyedDecodingContainer.lenientString`/`lenientDouble` read them.
private struct LenientFields {
    /// The fields, by the slot `slot(of:)` gives their key; nil when absent. Room on the stack,
    /// not an array: one allocation per record less.
    private let values: UnsafeMutableBufferPointer<WireJSON?>

    /// The record's location or why it cannot be placed; nil when `JSONDecoder` must judge it.
    static func location(from fields: [(String, WireJSON)]) -> Result<StudentLocation, UnplaceableRecord>? {
        withUnsafeTemporaryAllocation(of: WireJSON?.self, capacity: 11) { slots in
            slots.initialize(repeating: nil)
            defer { slots.deinitialize() }
            return LenientFields(fields, slots: slots)?.location()
        }
    }

    private enum Slot: Int {
        case objectId, uniqueKey, firstName, lastName, mapString, mediaURL, mediaUrl, latitude, longitude, createdAt,
            updatedAt
    }

    private static func slot(of key: String) -> Slot? {
        switch key {
        case "objectId": .objectId
        case "uniqueKey": .uniqueKey
        case "firstName": .firstName
        case "lastName": .lastName
        case "mapString": .mapString
        case "mediaURL": .mediaURL
        case "mediaUrl": .mediaUrl
        case "latitude": .latitude
        case "longitude": .longitude
        case "createdAt": .createdAt
        case "updatedAt": .updatedAt
        default: nil
        }
    }

    /// Nil when a known key appears twice (JSONDecoder's choice between them is its own), or a text
    /// field holds a fractional or huge number (JSONDecoder's conversion of it is its own too).
    private init?(_ fields: [(String, WireJSON)], slots: UnsafeMutableBufferPointer<WireJSON?>) {
        values = slots
        for (name, value) in fields {
            guard let slot = Self.slot(of: name) else { continue }
            guard values[slot.rawValue] == nil else { return nil }
            if case .number = value, slot != .latitude, slot != .longitude { return nil }
            values[slot.rawValue] = value
        }
    }

    private subscript(_ slot: Slot) -> WireJSON? { values[slot.rawValue] }

    func location() -> Result<StudentLocation, UnplaceableRecord> {
        let objectId = string(.objectId)
        func unplaceable(_ reason: String) -> Result<StudentLocation, UnplaceableRecord> {
            .failure(UnplaceableRecord(index: 0, objectId: objectId.isEmpty ? nil : objectId, reason: reason))
        }
        guard let latitude = double(.latitude) else {
            return unplaceable(self[.latitude] != nil ? "latitude is not a number" : "latitude is missing")
        }
        guard let longitude = double(.longitude) else {
            return unplaceable(self[.longitude] != nil ? "longitude is not a number" : "longitude is missing")
        }
        guard (-90...90).contains(latitude) else { return unplaceable("latitude \(latitude) is out of range") }
        guard (-180...180).contains(longitude) else { return unplaceable("longitude \(longitude) is out of range") }
        return .success(StudentLocation(
            objectId: objectId, uniqueKey: string(.uniqueKey), firstName: string(.firstName),
            lastName: string(.lastName), mapString: string(.mapString),
            mediaURL: self[.mediaURL] != nil ? string(.mediaURL) : string(.mediaUrl),
            latitude: latitude, longitude: longitude,
            createdAt: WireTimestamp.parse(string(.createdAt)), updatedAt: WireTimestamp.parse(string(.updatedAt))))
    }

    /// Trimmed text whatever the JSON type; "" when missing, null, an array or an object.
    private func string(_ slot: Slot) -> String {
        switch self[slot] {
        case .string(let text)?: text.trimmingWhitespace()
        case .integer(let number)?: String(number)
        case .bool(let flag)?: String(flag)
        default: ""
        }
    }

    /// A finite number, given as a JSON number or as text.
    private func double(_ slot: Slot) -> Double? {
        let value: Double?
        switch self[slot] {
        case .integer(let number)?: value = Double(number)
        case .number(let number)?: value = number
        case .string(let text)?: value = Double(text.trimmingWhitespace())
        default: value = nil
        }
        guard let value, value.isFinite else { return nil }
        return value
    }
}

extension StudentLocation {
    /// One location read from its parsed JSON by the list's lenient rules; nil when it cannot be
    /// placed on a map (or is not an object).
    public init?(wireJSON: WireJSON) {
        guard let location = StudentLocationList(wireRecords: [wireJSON])?.results.first else { return nil }
        self = location
    }
}
