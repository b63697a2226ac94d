import FoundationEssentials
import Logging
import OnTheMapAPI
import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

extension Daemon {
    /// Checks the session, then fetches the newest `cacheSize` locations, asking the upstream only
    /// for what changed (`If-None-Match` with the list's tags, `ListTags`: 304s keep the cache);
    /// concurrent calls share one fetch. Every refresh, the refresher's or a client's, checks the
    /// session first (one `GET /session`), so a revoked one ends at the next refresh, whoever asked
    /// for it; the one right after a login has no need to.
    func refresh(checkingSession: Bool = true) async throws {
        let (session, account) = try await requireLogin()
        let size = await live.cacheSize
        try await upstream("refresh", session: session) {
            // Inside the shared fetch, so a check that fails is the refresh's failure (`lastError`).
            try await self.state.refresh(for: session) { tags in
                if checkingSession { try await self.verifySession(session) }
                guard let fetched = try await self.api.newest(size, unlessStill: tags) else { return nil }
                let earlier = self.state.current.students
                let students = await Self.work.perform {
                    StudentList(fetched.list.results, accountKey: account.key, reusing: earlier)
                }
                return FetchedList(students: students, capacity: size, tags: fetched.tags, skipped: fetched.list.skipped)
            }
        }
    }

    /// The `students` answer, from the cache when it holds what was asked for; else from the server,
    /// for this request (more asked for than the cache holds, or a search or distances over more
    /// students than it holds). When the server cannot be reached, from the cache, saying how many
    /// were looked at (`limitedTo`).
    func students(_ params: StudentsParams, for clientIsThere: @escaping ClientWork.ClientIsThere = { true }) async throws -> RPCResult {
        let (session, account) = try await requireLogin()
        if params.refresh == true {
            do { try await refresh() } catch let error as APIError {
                // Serve the last good list, marked stale, rather than nothing.
                logger.notice("refresh failed; serving the cached list", metadata: ["error": "\(error.message)"])
            }
        }
        let snapshot = state.current
        let selection = StudentSelection(params)
        let cacheSize = await live.cacheSize
        let cacheHasAll = snapshot.refreshedAt != nil && !snapshot.cacheIsFull(cacheSize: cacheSize)
        // Records the cache left out (unreadable) are no more readable from the server: a page within
        // the newest `cacheSize` is the cache's (an editor's list of 100 went to the server each time).
        let needsServer = !cacheHasAll && (selection.needsWholeList || selection.end > snapshot.students.count + snapshot.skipped)
        if needsServer {
            // Up to 10,000 students decoded for this answer, answered or failed halfway: let go.
            defer { memoryTrimmer.serverListReleased() }
            let wanted = selection.needsWholeList ? StudentsParams.maximumFetched : min(selection.end, StudentsParams.maximumFetched)
            // Where the bound cuts what was asked for, one student more is asked for: a server
            // holding exactly `wanted` has no more, and "the server has more" would be untrue.
            let probing = selection.needsWholeList || selection.end > wanted
            func fetchAndAnswer() async throws -> RPCResult? {
                let fetched = try await upstream("students", session: session) {
                    try await self.api.newest(wanted + (probing ? 1 : 0))
                }
                guard let fetched else { return nil }
                let more = probing && fetched.received > wanted
                let list = fetched.list.cut(to: wanted)
                return try await Self.clientWork.perform(for: clientIsThere) {
                    try selection.answer(
                        from: StudentList(list.results, accountKey: account.key, encodingPins: false),
                        refreshedAt: Date(), stale: false, source: .server, limitedTo: more ? wanted : nil)
                }
            }
            do {
                // A search's or a long page's ten pages, a few clients' at a time (`ClientWork`); a
                // page of the newest beyond the cache, at once.
                let pages = (wanted + OnTheMapAPIClient.listPageSize - 1) / OnTheMapAPIClient.listPageSize
                let answer = pages > 1 ? try await Self.clientWork.fetching(for: clientIsThere, fetchAndAnswer) : try await fetchAndAnswer()
                if let answer { return answer }
            } catch let error as APIError where error.kind == .unreachable || error.isRetryable {
                logger.notice("students: the server could not be reached; answering from the cache", metadata: ["error": "\(error.message)"])
            }
        }
        let answer = { @Sendable in
            try selection.answer(
                from: snapshot.students, refreshedAt: snapshot.refreshedAt, stale: snapshot.isStale(),
                source: .cache, limitedTo: needsServer ? snapshot.students.count : nil)
        }
        // A page of the newest, searched for nothing, is a copy of its pins' JSON: answered here, it
        // waits for no one's search (an editor's list stayed fast while other programs searched).
        return try selection.isCheap ? answer() : await Self.clientWork.perform(for: clientIsThere, answer)
    }
}
