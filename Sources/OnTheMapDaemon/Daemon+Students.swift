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
    ///
    /// The first page alone (a short one ends the list); then the rest, up to `pagesInFlight` at a
    /// time: the server prepares one page while the daemon reads another, which took a 10,000-location
    /// refresh from one request after the other to about half the time (docs/benchmarks.md).
    static func fetchNewest(_ count: Int, from api: OnTheMapAPIClient, pagesInFlight: Int = 4) async throws
        -> StudentLocationList
    {
        guard count > 0 else { return StudentLocationList(results: []) }
        let pageSize = min(count, 1000)
        @Sendable func page(_ skip: Int) async throws -> StudentLocationList {
            try await api.studentLocations(
                StudentLocationQuery(limit: min(pageSize, count - skip), skip: skip, order: "-updatedAt"))
        }
        func isShort(_ list: StudentLocationList, at skip: Int) -> Bool {
            list.results.count + list.unplaceable.count < min(pageSize, count - skip)
        }
        var pages = [try await page(0)]
        if !isShort(pages[0], at: 0) {
            let skips = Array(stride(from: pageSize, to: count, by: pageSize))
            // The first short page ends the list: nothing past it is asked for, and a page past it
            // that was already in flight counts for nothing, failed or not. The closure keeps its
            // state to itself and returns it (a captured `var` written in it trapped in release builds).
            let (later, end) = try await withThrowingTaskGroup(
                of: (Int, StudentLocationList).self, returning: ([StudentLocationList?], Int).self
            ) { group in
                var later = [StudentLocationList?](repeating: nil, count: skips.count)
                var end = skips.count
                var next = 0
                var inFlight = 0
                while true {
                    while next < end, inFlight < pagesInFlight {
                        let index = next
                        group.addTask {
                            do { return (index, try await page(skips[index])) } catch { throw PageFailure(index: index, error: error) }
                        }
                        next += 1
                        inFlight += 1
                    }
                    let answer: (index: Int, list: StudentLocationList)?
                    do {
                        answer = try await group.next()
                    } catch let failure as PageFailure {
                        inFlight -= 1
                        guard failure.index >= end else { throw failure.error }
                        continue
                    }
                    guard let answer else { break }
                    inFlight -= 1
                    guard answer.index < end else { continue }
                    later[answer.index] = answer.list
                    if isShort(answer.list, at: skips[answer.index]) { end = answer.index + 1 }
                }
                return (later, end)
            }
            pages += later.prefix(end).compactMap { $0 }
        }
        var results: [StudentLocation] = []
        results.reserveCapacity(pages.reduce(0) { $0 + $1.results.count })
        var unplaceable: [UnplaceableRecord] = []
        for page in pages {
            results += page.results
            unplaceable += page.unplaceable
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
        var matches = await cache.entries
        if let search = query.search.map(SearchText.fold), !search.isEmpty {
            let words = search.split(separator: " ")
            matches = matches.filter { entry in words.allSatisfy { entry.searchKey.contains($0) } }
        }
        var distances: [Double]?
        if let near = query.near {
            let withDistance =
                matches
                .map { ($0, Geo.distanceKm(near.latitude, near.longitude, $0.location.latitude, $0.location.longitude)) }
                .filter { near.radiusKm == nil || $0.1 <= near.radiusKm! }
                .sorted { $0.1 < $1.1 }
            matches = withDistance.map(\.0)
            distances = withDistance.map(\.1)
        }
        let range = min(query.skip, matches.count)..<min(query.skip + query.limit, matches.count)
        return .bytes(StudentsAnswer(
            students: matches[range].map(\.json), distancesKm: distances.map { Array($0[range]) },
            total: matches.count, refreshedAt: await cache.refreshedAt, stale: await cache.isStale()
        ).serializedBytes)
    }
}

/// A page of `fetchNewest` that failed, and which: a failure past the end of the list is ignored.
private struct PageFailure: Error {
    var index: Int
    var error: any Error
}
