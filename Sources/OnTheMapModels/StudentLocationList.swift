/// The body of `GET /StudentLocation`: `{"results":[...]}`.
///
/// Decoding never fails because of one bad record: a record without a required field, with a field of
/// the wrong type or with a coordinate out of range is skipped, and `skipped` says which and why, so
/// a caller can count and report them. It never becomes an empty name or a pin at 0,0.
public struct StudentLocationList: Sendable, Hashable, Codable {
    /// The records that can be placed on a map, in the order the server sent them.
    public var results: [StudentLocation]
    /// The records that could not be, with the reason.
    public var skipped: [SkippedRecord]

    /// Creates a list, as the server does before encoding it.
    public init(results: [StudentLocation], skipped: [SkippedRecord] = []) {
        self.results = results
        self.skipped = skipped
    }

    enum CodingKeys: String, CodingKey {
        case results
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var elements = try container.nestedUnkeyedContainer(forKey: .results)
        var results: [StudentLocation] = []
        var skipped: [SkippedRecord] = []
        while !elements.isAtEnd {
            let index = elements.currentIndex
            let record = try elements.decode(OneRecord.self)
            if let location = record.location {
                if let problem = location.placementProblem {
                    skipped.append(SkippedRecord(index: index, objectId: location.objectId, reason: problem))
                } else {
                    results.append(location)
                }
            } else {
                skipped.append(SkippedRecord(index: index, objectId: nil, reason: record.problem))
            }
        }
        self.results = results
        self.skipped = skipped
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(results, forKey: .results)
    }

    /// The first `count` records as the server sent them (placeable or skipped): what a page's
    /// `limit` asked for. An upstream that ignores `limit` sent 10,000 a page, and the daemon kept
    /// them all.
    public func cut(to count: Int) -> StudentLocationList {
        guard results.count + skipped.count > count else { return self }
        let skippedBefore = skipped.filter { $0.index < count }
        return StudentLocationList(results: Array(results.prefix(max(0, count - skippedBefore.count))), skipped: skippedBefore)
    }
}

/// A record of the API's list that was left out, and why: "firstName is missing".
public struct SkippedRecord: Error, Sendable, Hashable, CustomStringConvertible {
    /// Position of the record in the `results` array.
    public var index: Int
    /// The record's `objectId`, when it could be read.
    public var objectId: String?
    /// What is wrong, naming the field, for a person.
    public var reason: String

    public init(index: Int, objectId: String?, reason: String) {
        self.index = index
        self.objectId = objectId
        self.reason = reason
    }

    public var description: String {
        "record \(index)\(objectId.map { " (\($0))" } ?? ""): \(reason)"
    }

    /// "2 records left out: firstName is missing (1), latitude 200 is out of range (1)".
    public static func summary(_ records: [SkippedRecord]) -> String? {
        guard !records.isEmpty else { return nil }
        var counts: [(String, Int)] = []
        for record in records {
            if let index = counts.firstIndex(where: { $0.0 == record.reason }) {
                counts[index].1 += 1
            } else {
                counts.append((record.reason, 1))
            }
        }
        let reasons = counts.prefix(3).map { "\($0.0) (\($0.1))" }.joined(separator: ", ")
        let more = counts.count > 3 ? ", …" : ""
        return "\(records.count) record\(records.count == 1 ? "" : "s") left out: \(reasons)\(more)"
    }
}

/// Decodes one array element without letting its failure end the array.
private struct OneRecord: Decodable {
    var location: StudentLocation?
    var problem = ""

    init(from decoder: any Decoder) throws {
        do {
            location = try StudentLocation(from: decoder)
        } catch let error as DecodingError {
            problem = error.fieldProblem
        }
    }
}

extension DecodingError {
    /// The problem in a person's words, naming the field: "firstName is missing".
    public var fieldProblem: String {
        switch self {
        case .keyNotFound(let key, _): return "\(key.stringValue) is missing"
        case .valueNotFound(_, let context): return "\(Self.field(context)) is null"
        case .typeMismatch(let type, let context): return "\(Self.field(context)) is not \(Self.kind(type))"
        case .dataCorrupted(let context): return "\(Self.field(context)) is not readable"
        @unknown default: return "the record is not readable"
        }
    }

    private static func field(_ context: Context) -> String {
        guard let last = context.codingPath.last, last.intValue == nil else { return "the record" }
        return last.stringValue
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Double.Type, is Int.Type: "a number"
        case is Bool.Type: "true or false"
        default: "an object"
        }
    }
}
