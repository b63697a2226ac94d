import OnTheMapModels

/// `geocode {query, limit?}` → candidate places. Needs no login.
public struct GeocodeParams: RPCRequestType, Equatable {
    public typealias Response = GeocodeResults
    public static let method = "geocode"
    public static let summary = "Places matching free text, best first: {results: [{name, admin1, country, countryCode, latitude, longitude, precision, score, extentKm?}]}."

    /// The longest query read (the gazetteer's `PlaceQuery.maximumBytes`; a test holds them equal).
    public static let maximumQueryBytes = 300
    public static let defaultLimit = 5
    public static let query = RPCParam<String>.string("query", required: true, "what a person typed, e.g. \"Duisburg, Germany\"")
    public static let limit = RPCParam<Int>.integer("limit", in: 1...50, "at most this many (default 5)")
    public static let parameters = [query.parameter, limit.parameter]

    public var query: String
    public var limit: Int?

    public init(query: String, limit: Int? = nil) {
        self.query = query
        self.limit = limit
    }

    public init(reading params: RPCParams) throws(RPCError) {
        query = try params.required(Self.query)
        guard query.utf8.count <= Self.maximumQueryBytes else {
            throw .invalidParams(field: Self.query.name, "is too long (at most \(Self.maximumQueryBytes) bytes)")
        }
        limit = try params(Self.limit)
    }

    public var params: WireJSON? {
        var writer = RPCParamsWriter()
        writer.add(Self.query, query)
        writer.add(Self.limit, limit)
        return writer.params
    }
}

/// `geocode`'s result: `{results: [place]}`, best first.
public struct GeocodeResults: RPCResultType, Equatable {
    public var results: [GeocodeResult]

    public init(results: [GeocodeResult]) {
        self.results = results
    }

    public var wireJSON: WireJSON { .object([("results", .array(results.map(\.wireJSON)))]) }

    public init(wireJSON: WireJSON) {
        guard case .array(let elements)? = wireJSON["results"] else {
            results = []
            return
        }
        results = elements.map(GeocodeResult.init(wireJSON:))
    }
}

extension GeocodeResult {
    /// One candidate as `geocode` sends it.
    public var wireJSON: WireJSON {
        var members: [(String, WireJSON)] = [
            ("name", .string(name)), ("admin1", .string(admin1)), ("country", .string(country)),
            ("countryCode", .string(countryCode)), ("latitude", .number(latitude)), ("longitude", .number(longitude)),
            // Three decimals: finer differences in a heuristic score mean nothing.
            ("precision", .string(precision)), ("score", .number((score * 1000).rounded() / 1000)),
        ]
        if let extentKm { members.append(("extentKm", .number(extentKm))) }
        return .object(members)
    }

    /// Reads a candidate; what is missing reads as empty.
    public init(wireJSON: WireJSON) {
        self.init(
            name: wireJSON["name"]?.stringValue ?? "", admin1: wireJSON["admin1"]?.stringValue ?? "",
            country: wireJSON["country"]?.stringValue ?? "", countryCode: wireJSON["countryCode"]?.stringValue ?? "",
            latitude: wireJSON["latitude"]?.doubleValue ?? 0, longitude: wireJSON["longitude"]?.doubleValue ?? 0,
            precision: wireJSON["precision"]?.stringValue ?? "", score: wireJSON["score"]?.doubleValue ?? 0,
            extentKm: wireJSON["extentKm"]?.doubleValue)
    }
}
