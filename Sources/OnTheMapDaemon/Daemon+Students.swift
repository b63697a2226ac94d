import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import Logging

/// What `students` may ask for.
struct StudentQuery: Sendable {
    var limit = StudentsAnswer.defaultLimit
    var skip = 0
    var search: String?
    var near: (latitude: Double, longitude: Double, radiusKm: Double?)?

    /// Whether the pre-serialized default answer fits.
    var isDefault: Bool { limit == StudentsAnswer.defaultLimit && skip == 0 && search == nil && near == nil }
}

extension Daemon {
    /// Fetches the newest `cacheSize` locations now; concurrent calls share one fetch.
    func refresh() async throws {
        let (session, _) = try await requireLogin()
        let size = await live.cacheSize
        do {
            try await upstream("refresh", session: session) {
                try await self.cache.refresh { [api = self.api] in try await Self.fetchNewest(size, from: api) }
            }
        } catch {
            await publishStatus()
            throw error
        }
        await events.publish(.students, .object([
            ("count", .integer(await cache.count)),
            ("refreshedAt", (await cache.refreshedAt).map { .string(WireTimestamp.milliseconds($0)) } ?? .null),
        ]))
        await publishStatus()
    }

    /// Pages through `GET /StudentLocation?order=-updatedAt` until `count` locations are in hand.
    static func fetchNewest(_ count: Int, from api: OnTheMapAPIClient) async throws -> StudentLocationList {
        let pageSize = min(count, 1000)
        var results: [StudentLocation] = []
        var unplaceable: [UnplaceableRecord] = []
        var skip = 0
        while skip < count {
            let page = try await api.studentLocations(
                StudentLocationQuery(limit: min(pageSize, count - skip), skip: skip, order: "-updatedAt"))
            results += page.results
            unplaceable += page.unplaceable
            let received = page.results.count + page.unplaceable.count
            if received < min(pageSize, count - skip) { break }
            skip += received
        }
        return StudentLocationList(results: results, unplaceable: unplaceable)
    }

    /// The `students` answer: the pre-serialized default when it fits, else filtered and sorted now.
    func students(_ query: StudentQuery, refresh wantsRefresh: Bool) async throws -> RPCResult {
        _ = try await requireLogin()
        if wantsRefresh {
            do { try await refresh() } catch let error as APIError {
                // Serve the last good list, marked stale, rather than nothing.
                logger.notice("refresh failed; serving the cached list", metadata: ["error": "\(error.message)"])
            }
        }
        if query.isDefault, let cached = await cache.currentDefaultAnswer() {
            return .serialized(cached)
        }
        let entries = await cache.entries
        var matches = entries
        if let search = query.search.map(SearchText.fold), !search.isEmpty {
            let words = search.split(separator: " ")
            matches = matches.filter { entry in words.allSatisfy { entry.searchKey.contains($0) } }
        }
        var located = matches.map(\.location)
        var distances: [Double]?
        if let near = query.near {
            let withDistance = located.map { ($0, Geo.distanceKm(near.latitude, near.longitude, $0.latitude, $0.longitude)) }
                .filter { near.radiusKm == nil || $0.1 <= near.radiusKm! }
                .sorted { $0.1 < $1.1 }
            located = withDistance.map(\.0)
            distances = withDistance.map(\.1)
        }
        let range = min(query.skip, located.count)..<min(query.skip + query.limit, located.count)
        return .value(StudentsAnswer(
            students: Array(located[range]), distancesKm: distances.map { Array($0[range]) }, total: located.count,
            refreshedAt: await cache.refreshedAt, stale: await cache.isStale()
        ).wireJSON)
    }
}
