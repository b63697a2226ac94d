#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a record from the API cannot be put on a map.
public struct UnplaceableRecord: Error, Sendable, Hashable, CustomStringConvertible {
    /// Position of the record in the `results` array.
    public var index: Int
    /// The record's `objectId`, when it had one.
    public var objectId: String?
    /// What is wrong, for a person: "latitude is missing", "longitude 200 is out of range".
    public var reason: String

    public var description: String {
        "record \(index)\(objectId.map { " (\($0))" } ?? ""): \(reason)"
    }
}

extension StudentLocation: Decodable {
    /// Decodes a real-world record: nulls and missing text become "", `mediaUrl` is accepted for
    /// `mediaURL`, coordinates may be strings, text is trimmed. Throws `UnplaceableRecord` (with
    /// index 0; the list fills it in) only when the record cannot be placed on a map.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let objectId = container.lenientString(.objectId)
        func unplaceable(_ reason: String) -> UnplaceableRecord {
            UnplaceableRecord(index: 0, objectId: objectId.isEmpty ? nil : objectId, reason: reason)
        }
        guard let latitude = container.lenientDouble(.latitude) else {
            throw unplaceable(container.contains(.latitude) ? "latitude is not a number" : "latitude is missing")
        }
        guard let longitude = container.lenientDouble(.longitude) else {
            throw unplaceable(container.contains(.longitude) ? "longitude is not a number" : "longitude is missing")
        }
        guard (-90...90).contains(latitude) else { throw unplaceable("latitude \(latitude) is out of range") }
        guard (-180...180).contains(longitude) else { throw unplaceable("longitude \(longitude) is out of range") }

        self.init(
            objectId: objectId,
            uniqueKey: container.lenientString(.uniqueKey),
            firstName: container.lenientString(.firstName),
            lastName: container.lenientString(.lastName),
            mapString: container.lenientString(.mapString),
            mediaURL: container.contains(.mediaURL)
                ? container.lenientString(.mediaURL) : container.lenientString(.mediaUrl),
            latitude: latitude,
            longitude: longitude,
            createdAt: WireTimestamp.parse(container.lenientString(.createdAt)),
            updatedAt: WireTimestamp.parse(container.lenientString(.updatedAt))
        )
    }
}

extension KeyedDecodingContainer {
    /// The value as trimmed text whatever its JSON type; "" when missing, null or not a scalar.
    func lenientString(_ key: Key) -> String {
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            return text.trimmingWhitespace()
        }
        if let number = try? decodeIfPresent(Int64.self, forKey: key) { return String(number) }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return String(number) }
        if let flag = try? decodeIfPresent(Bool.self, forKey: key) { return String(flag) }
        return ""
    }

    /// A finite number given as a JSON number or as text; nil otherwise.
    func lenientDouble(_ key: Key) -> Double? {
        let value: Double?
        if let number = try? decodeIfPresent(Double.self, forKey: key) {
            value = number
        } else if let text = try? decodeIfPresent(String.self, forKey: key) {
            value = Double(text.trimmingWhitespace())
        } else {
            value = nil
        }
        guard let value, value.isFinite else { return nil }
        return value
    }
}
