import OnTheMapModels

/// `geocode {query, limit?}` → candidate places. Needs no login.
public struct GeocodeParams: RPCRequestType, Equatable {
    public typealias Response = GeocodeResults
    public static let method = "geocode"
    public static let summary = "Places matching free text, best first: {results: [{name, admin1, country, countryCode, latitude, longitude, precision, score}]}."

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
    /// One candidate place.
    public struct Place: Sendable, Equatable {
        public var name: String
        public var admin1: String
        public var country: String
        public var countryCode: String
        public var latitude: Double
        public var longitude: Double
        /// `locality`, `region` or `country`.
        public var precision: String
        /// How well the query matched, 0…1.
        public var score: Double

        public init(
            name: String, admin1: String, country: String, countryCode: String, latitude: Double, longitude: Double,
            precision: String, score: Double
        ) {
            self.name = name
            self.admin1 = admin1
            self.country = country
            self.countryCode = countryCode
            self.latitude = latitude
            self.longitude = longitude
            self.precision = precision
            self.score = score
        }

        var wireJSON: WireJSON {
            .object([
                ("name", .string(name)), ("admin1", .string(admin1)), ("country", .string(country)),
                ("countryCode", .string(countryCode)), ("latitude", .number(latitude)), ("longitude", .number(longitude)),
                // Three decimals: finer differences in a heuristic score mean nothing.
                ("precision", .string(precision)), ("score", .number((score * 1000).rounded() / 1000)),
            ])
        }

        init(wireJSON: WireJSON) {
            name = wireJSON["name"]?.stringValue ?? ""
            admin1 = wireJSON["admin1"]?.stringValue ?? ""
            country = wireJSON["country"]?.stringValue ?? ""
            countryCode = wireJSON["countryCode"]?.stringValue ?? ""
            latitude = wireJSON["latitude"]?.doubleValue ?? 0
            longitude = wireJSON["longitude"]?.doubleValue ?? 0
            precision = wireJSON["precision"]?.stringValue ?? ""
            score = wireJSON["score"]?.doubleValue ?? 0
        }
    }

    public var results: [Place]

    public init(results: [Place]) {
        self.results = results
    }

    public var wireJSON: WireJSON { .object([("results", .array(results.map(\.wireJSON)))]) }

    public init(wireJSON: WireJSON) {
        guard case .array(let elements)? = wireJSON["results"] else {
            results = []
            return
        }
        results = elements.map(Place.init(wireJSON:))
    }
}
