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
                guard let fetched = try await Self.fetchNewest(size, from: self.api, unlessStill: tags) else { return nil }
                let earlier = self.state.current.students
                let students = await Self.work.perform {
                    StudentList(fetched.list.results, accountKey: account.key, reusing: earlier)
                }
                return FetchedList(students: students, capacity: size, tags: fetched.tags, skipped: fetched.list.skipped)
            }
        }
    }

    /// The most locations the API hands out in one page (Parse's and the Udacity API's limit).
    static let listPageSize = 1000

    /// Pages through `GET /StudentLocation?order=-updatedAt` until `count` locations are in hand, up
    /// to 1,000 a page. With `known`, the tags of the list in hand, nil back when the server says its
    /// first page and its last are both unchanged (`ListTags` says why those two). A short page ends
    /// the list.
    ///
    /// After a full first page, `pagesAtOnce` pages are asked for at a time: a page's decoding
    /// overlaps the next pages' transfer, and a list that turns out short costs at most that many
    /// pages more.
    static func fetchNewest(_ count: Int, from api: OnTheMapAPIClient, unlessStill known: ListTags? = nil) async throws
        -> (list: StudentLocationList, tags: ListTags?, received: Int)?
    {
        guard count > 0 else { return (StudentLocationList(results: []), nil, 0) }
        let pageSize = min(count, Self.listPageSize)
        func size(skip: Int) -> Int { min(pageSize, count - skip) }
        typealias Page = (list: StudentLocationList, etag: String?)
        /// A page and its tag; nil when it is still the page tagged `etag`.
        func page(skip: Int, unlessStill etag: String? = nil) async throws -> Page? {
            let query = StudentLocationQuery(limit: size(skip: skip), skip: skip, order: "-updatedAt")
            switch try await api.studentLocations(query, ifNoneMatch: etag) {
            case .notModified: return nil
            case .list(let list, let tag): return (list.cut(to: size(skip: skip)), tag)
            }
        }
        func isShort(_ page: StudentLocationList, skip: Int) -> Bool {
            page.results.count + page.skipped.count < size(skip: skip)
        }
        let known = known?.count == count ? known : nil
        var firstPage = try await page(skip: 0, unlessStill: known?.first)
        if firstPage == nil {
            // A deletion below the first page shows only further down: on the last page.
            guard let last = known?.last, try await page(skip: last.skip, unlessStill: last.etag) != nil else { return nil }
            firstPage = try await page(skip: 0)
        }
        guard let first = firstPage else { return nil }
        var pages = [0: first]
        var end = isShort(first.list, skip: 0) ? 0 : count  // where the list ends, as far as known
        try await withThrowingTaskGroup(of: (Int, Page?).self) { group in
            var next = pageSize
            func ask(_ group: inout ThrowingTaskGroup<(Int, Page?), any Error>) {
                guard next < end else { return }
                let skip = next
                next += pageSize
                group.addTask { (skip, try await page(skip: skip)) }
            }
            for _ in 0..<pagesAtOnce { ask(&group) }
            // Asked with no tag, a page is always answered whole (never nil).
            while let (skip, answer) = try await group.next(), let answer {
                pages[skip] = answer
                if isShort(answer.list, skip: skip) { end = min(end, skip) }
                ask(&group)
            }
        }
        // In order, up to and including the first short page.
        var inOrder: [(skip: Int, page: StudentLocationList)] = []
        var skip = 0
        while let page = pages[skip]?.list {
            inOrder.append((skip, page))
            if isShort(page, skip: skip) { break }
            skip += pageSize
        }
        let (list, received) = joined(inOrder)
        // The page that ends the list, after the first. A list of exactly N pages ends with an empty
        // page, which a deletion leaves empty (the page before it loses one) and a student added at
        // the end fills: its tag is of the page one student back (asked once more), which both change.
        // An upstream that tags no page (Udacity's) is not asked.
        var lastPage: ListTags.Page?
        if first.etag != nil, let end = inOrder.last, end.skip > 0 {
            let endsEmpty = end.page.results.isEmpty && end.page.skipped.isEmpty
            let skip = endsEmpty ? end.skip - 1 : end.skip
            let etag = endsEmpty ? try await page(skip: skip)?.etag : pages[skip]?.etag
            lastPage = etag.map { ListTags.Page(skip: skip, etag: $0) }
        }
        let listTags = first.etag.map { ListTags(count: count, first: $0, last: lastPage) }
        return (list, listTags, received)
    }

    /// Pages, in order, as one list: a student seen on an earlier page is left out (a pin posted
    /// or moved meanwhile moves the pages by one, and is sent twice). `received` counts every
    /// record the pages held, the repeats too: that many were on the server, whatever moved.
    static func joined(_ pages: [(skip: Int, page: StudentLocationList)]) -> (list: StudentLocationList, received: Int) {
        var results: [StudentLocation] = []
        var skipped: [SkippedRecord] = []
        var seen = Set<String>()
        var received = 0
        for (skip, page) in pages {
            received += page.results.count + page.skipped.count
            results += page.results.filter { seen.insert($0.objectId).inserted }
            skipped += page.skipped.map { SkippedRecord(index: $0.index + skip, objectId: $0.objectId, reason: $0.reason) }
        }
        return (StudentLocationList(results: results, skipped: skipped), received)
    }

    /// How many pages `fetchNewest` asks for at a time after the first.
    static let pagesAtOnce = 3

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
                    try await Self.fetchNewest(wanted + (probing ? 1 : 0), from: self.api)
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
                let pages = (wanted + Self.listPageSize - 1) / Self.listPageSize
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
