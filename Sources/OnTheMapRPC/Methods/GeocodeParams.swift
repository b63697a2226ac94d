import OnTheMapModels

/// `geocode {query, limit?}` → candidate places. Needs no login.
public struct GeocodeParams: RPCRequestType, Equatable {
    public typealias Response = GeocodeResults
    public static let method = "geocode"
    public static let summary = "Places matching free text, best first: {results: [{label, name, admin1, country, countryCode, latitude, longitude, precision, score, extentKm?}]}."

    /// The longest query read (the gazetteer's `PlaceQuery.maximumBytes`; a test holds them equal).
    public static let maximumQueryBytes = 300
    public static let defaultLimit = 5
    public static let query = RPCParam<String>.string(
        "query", required: true, maximumBytes: maximumQueryBytes, "what a person typed, e.g. \"Duisburg, Germany\"")
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
        limit = try params(Self.limit)
    }

    public var params: WireJSON? {
        var writer = RPCParamsWriter()
        writer.add(Self.query, query)
        writer.add(Self.limit, limit)
        return writer.params
    }
}

/// `geocode`'s result: `{results: [place]}`, best first, each with its `label`.
public struct GeocodeResults: RPCResultType, Equatable {
    public var results: [GeocodeResult]

    public init(results: [GeocodeResult]) {
        self.results = results
    }
}
