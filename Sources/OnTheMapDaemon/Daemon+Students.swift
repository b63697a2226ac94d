import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import Logging

extension Daemon {
    /// Checks the session, then fetches the newest `cacheSize` locations; concurrent calls share
    /// one fetch. Every refresh, the refresher's or a client's, checks the session first (one
    /// `GET /session`), so a revoked one ends at the next refresh, whoever asked for it; the one
    /// right after a login has no need to.
    func refresh(checkingSession: Bool = true) async throws {
        let (session, _) = try await requireLogin()
        let size = await live.cacheSize
        try await upstream("refresh", session: session) {
            // Inside the shared fetch, so a check that fails is the refresh's failure (`lastError`).
            try await self.state.refresh(for: session) {
                if checkingSession { try await self.verifySession(session) }
                return try await Self.fetchNewest(size, from: self.api)
            }
        }
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

    /// The `students` answer: the prepared default when it fits, else filtered and sorted now.
    func students(_ params: StudentsParams) async throws -> RPCResult {
        _ = try await requireLogin()
        if params.refresh == true {
            do { try await refresh() } catch let error as APIError {
                // Serve the last good list, marked stale, rather than nothing.
                logger.notice("refresh failed; serving the cached list", metadata: ["error": "\(error.message)"])
            }
        }
        let snapshot = await state.current
        let limit = params.limit ?? StudentsParams.defaultLimit
        let skip = params.skip ?? 0
        let search = params.search.map(SearchText.fold) ?? ""
        if limit == StudentsParams.defaultLimit, skip == 0, search.isEmpty, params.near == nil,
            let prepared = answers.prepared(for: snapshot).students
        {
            return .buffer(prepared)
        }
        var matches = snapshot.students.entries
        if !search.isEmpty {
            let words = search.split(separator: " ")
            matches = matches.filter { entry in words.allSatisfy { entry.searchKey.contains($0) } }
        }
        var distances: [Double]?
        if let near = params.near {
            let withDistance =
                matches
                .map { ($0, Geo.distanceKm(near.latitude, near.longitude, $0.location.latitude, $0.location.longitude)) }
                .filter { near.radiusKm == nil || $0.1 <= near.radiusKm! }
                .sorted { $0.1 < $1.1 }
            matches = withDistance.map(\.0)
            distances = withDistance.map(\.1)
        }
        let range = min(skip, matches.count)..<min(skip + limit, matches.count)
        return .bytes(StudentsAnswer(
            students: matches[range].map(\.json), distancesKm: distances.map { Array($0[range]) },
            total: matches.count, refreshedAt: snapshot.refreshedAt, stale: snapshot.isStale()
        ).serializedBytes)
    }
}

/// A page of `fetchNewest` that failed, and which: a failure past the end of the list is ignored.
private struct PageFailure: Error {
    var index: Int
    var error: any Error
}
