import OnTheMapModels

/// `students {limit?, skip?, search?, near?, refresh?}` → `StudentsResult`.
public struct StudentsParams: RPCRequestType, Equatable {
    public typealias Response = StudentsResult
    public static let method = "students"
    public static let summary = "Student pins, newest first (nearest first with `near`), from the cache, or from the server when more than the cache holds is asked for; requires login."

    /// Sort by distance from a point, optionally keeping only those within `radiusKm`.
    public struct Near: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        public var radiusKm: Double?

        public init(latitude: Double, longitude: Double, radiusKm: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.radiusKm = radiusKm
        }
    }

    public static let defaultLimit = 100
    /// The most students one answer fetches from the server when the cache does not hold what was
    /// asked for (docs/PROTOCOL.md, "students").
    public static let maximumFetched = 10_000
    public static let limit = RPCParam<Int>.integer("limit", in: 0...100_000, "at most this many (default 100, up to 100000)")
    public static let skip = RPCParam<Int>.integer("skip", in: 0...Int(Int32.max), "skip this many first")
    /// The longest search read: a name and a place fit many times over, and a search costs the daemon
    /// time in proportion to its length times the list's (docs/PROTOCOL.md, "Limits").
    public static let maximumSearchBytes = 200
    public static let search = RPCParam<String>.string(
        "search", maximumBytes: maximumSearchBytes,
        "case- and accent-insensitive words over names and place (at most 200 bytes)")
    public static let near = RPCParam<Near>(
        "near", .object, "{latitude, longitude, radiusKm?}: sort by distance, optionally within a radius"
    ) { params throws(RPCError) in
        guard let near = try params.object("near", allowed: ["latitude", "longitude", "radiusKm"]) else { return nil }
        let point = try MapParams.point(near, field: "near")
        return Near(latitude: point.latitude, longitude: point.longitude, radiusKm: try near.double("radiusKm", in: MapParams.radiusRange))
    } write: { near in
        var members: [(String, WireJSON)] = [("latitude", .number(near.latitude)), ("longitude", .number(near.longitude))]
        if let radiusKm = near.radiusKm { members.append(("radiusKm", .number(radiusKm))) }
        return .object(members)
    }
    public static let refresh = RPCParam<Bool>.boolean("refresh", "fetch from upstream first")
    public static let parameters = [limit.parameter, skip.parameter, search.parameter, near.parameter, refresh.parameter]

    public var limit: Int?
    public var skip: Int?
    public var search: String?
    public var near: Near?
    public var refresh: Bool?

    public init(limit: Int? = nil, skip: Int? = nil, search: String? = nil, near: Near? = nil, refresh: Bool? = nil) {
        self.limit = limit
        self.skip = skip
        self.search = search
        self.near = near
        self.refresh = refresh
    }

    public init(reading params: RPCParams) throws(RPCError) {
        limit = try params(Self.limit)
        skip = try params(Self.skip)
        search = try params(Self.search)
        near = try params(Self.near)
        refresh = try params(Self.refresh)
    }

    public var params: WireJSON? {
        var writer = RPCParamsWriter()
        writer.add(Self.limit, limit)
        writer.add(Self.skip, skip)
        writer.add(Self.search, search)
        writer.add(Self.near, near)
        writer.add(Self.refresh, refresh)
        return writer.params
    }
}
