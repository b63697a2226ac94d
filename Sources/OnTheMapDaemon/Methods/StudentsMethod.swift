import OnTheMapModels
import OnTheMapRPC

/// `students {limit?, skip?, search?, near?, refresh?}` → `{students, total, refreshedAt, stale}`.
enum StudentsMethod: RPCMethod {
    static let name = "students"
    static let summary = "Cached student locations, newest first (or nearest first with `near`); requires login."
    static let params: [(String, String, Bool, String)] = [
        ("limit", "integer", false, "at most this many (default 100, up to 100000)"),
        ("skip", "integer", false, "skip this many first"),
        ("search", "string", false, "case- and accent-insensitive words over names and place"),
        ("near", "object", false, "{latitude, longitude, radiusKm?}: sort by distance, optionally within a radius"),
        ("refresh", "boolean", false, "fetch from upstream first"),
    ]

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let reader = try RPCParams(params, allowed: allowedParams)
        var query = StudentQuery()
        query.limit = try reader.int("limit", in: 0...100_000) ?? query.limit
        query.skip = try reader.int("skip", in: 0...Int(Int32.max)) ?? 0
        query.search = try reader.string("search")
        if let near = try reader.object("near", allowed: ["latitude", "longitude", "radiusKm"]) {
            guard let latitude = try near.double("latitude", in: -90...90) else {
                throw RPCError.invalidParams(field: "near.latitude", "is required")
            }
            guard let longitude = try near.double("longitude", in: -180...180) else {
                throw RPCError.invalidParams(field: "near.longitude", "is required")
            }
            query.near = (latitude, longitude, try near.double("radiusKm", in: 0...20_100))
        }
        return try await daemon.students(query, refresh: try reader.bool("refresh") ?? false)
    }
}
