/// The body of `GET /StudentLocation`: `{"results":[...]}`.
///
/// Decoding never fails because of one bad record: records that cannot be placed on a map are
/// collected in `unplaceable` instead, so a caller can count and report them.
public struct StudentLocationList: Sendable, Hashable, Codable {
    /// The records that can be placed on a map, in the order the server sent them.
    public var results: [StudentLocation]
    /// The records that could not be, with the reason.
    public var unplaceable: [UnplaceableRecord]

    /// Creates a list, as the server does before encoding it.
    public init(results: [StudentLocation], unplaceable: [UnplaceableRecord] = []) {
        self.results = results
        self.unplaceable = unplaceable
    }

    enum CodingKeys: String, CodingKey {
        case results
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var elements = try container.nestedUnkeyedContainer(forKey: .results)
        var results: [StudentLocation] = []
        var unplaceable: [UnplaceableRecord] = []
        while !elements.isAtEnd {
            let index = elements.currentIndex
            let element = try elements.decode(LenientElement.self)
            switch element.result {
            case .success(let location):
                results.append(location)
            case .failure(var problem):
                problem.index = index
                unplaceable.append(problem)
            }
        }
        self.results = results
        self.unplaceable = unplaceable
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(results, forKey: .results)
    }
}

/// Decodes one array element without letting its failure end the array.
private struct LenientElement: Decodable {
    var result: Result<StudentLocation, UnplaceableRecord>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try StudentLocation(from: decoder))
        } catch let problem as UnplaceableRecord {
            result = .failure(problem)
        } catch {
            result = .failure(UnplaceableRecord(index: 0, objectId: nil, reason: "not a location object"))
        }
    }
}
