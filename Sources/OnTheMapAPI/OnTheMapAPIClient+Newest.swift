import FoundationEssentials
import OnTheMapModels

/// The API's paging, as a client that keeps the newest students uses it: page after page of
/// `GET /StudentLocation?order=-updatedAt`, and whether the list changed since (`ListTags`).
extension OnTheMapAPIClient {
    /// The most locations the API hands out in one page (Parse's and the Udacity API's limit).
    public static let listPageSize = 1000

    /// Pages through `GET /StudentLocation?order=-updatedAt` until `count` locations are in hand, up
    /// to 1,000 a page. With `known`, the tags of the list in hand, nil back when the server says its
    /// first page and its last are both unchanged (`ListTags` says why those two). A short page ends
    /// the list.
    ///
    /// After a full first page, `pagesAtOnce` pages are asked for at a time: a page's decoding
    /// overlaps the next pages' transfer, and a list that turns out short costs at most that many
    /// pages more.
    public func newest(_ count: Int, unlessStill known: ListTags? = nil) async throws
        -> (list: StudentLocationList, tags: ListTags?, received: Int)?
    {
        guard count > 0 else { return (StudentLocationList(results: []), nil, 0) }
        let pageSize = min(count, Self.listPageSize)
        func size(skip: Int) -> Int { min(pageSize, count - skip) }
        typealias Page = (list: StudentLocationList, etag: String?)
        /// A page and its tag; nil when it is still the page tagged `etag`.
        func page(skip: Int, unlessStill etag: String? = nil) async throws -> Page? {
            let query = StudentLocationQuery(limit: size(skip: skip), skip: skip, order: "-updatedAt")
            switch try await studentLocations(query, ifNoneMatch: etag) {
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
            for _ in 0..<Self.pagesAtOnce { ask(&group) }
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
        let (list, received) = Self.joined(inOrder)
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

    /// How many pages `newest` asks for at a time after the first.
    static let pagesAtOnce = 3
}
