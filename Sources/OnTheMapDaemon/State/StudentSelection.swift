import FoundationEssentials
import OnTheMapFolding
import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapRPC

/// What a `students` request picks from a list: the students whose name or place holds every word
/// searched for, nearest first with distances when `near` is given, then the page (`skip`, `limit`).
/// Runs on `Daemon.clientWork` (a search goes through the whole list), but for a page of the newest.
struct StudentSelection: Sendable {
    /// The words searched for, folded as the list's search keys are.
    let words: [Substring]
    let near: StudentsParams.Near?
    let skip: Int
    let limit: Int

    init(_ params: StudentsParams) {
        // Each word once, the longest first: a word found in a longer one asks nothing more, and a
        // long word rules a student out soonest.
        let all: [Substring] = Set(SearchFolding.fold(params.search ?? "").split(separator: " ")).sorted { $0.count > $1.count }
        var kept: [Substring] = []
        for word in all where !kept.contains(where: { $0.contains(word) }) { kept.append(word) }
        words = kept
        near = params.near
        skip = params.skip ?? 0
        limit = params.limit ?? StudentsParams.defaultLimit
    }

    /// Whether every student must be looked at, not only the newest `end`: a search, distances, or
    /// a count (`limit: 0`, Parse's `limit=0&count=1`: how many there are, none shown).
    var needsWholeList: Bool { !words.isEmpty || near != nil || limit == 0 }

    /// How many of the newest students a page without a search or distances needs.
    var end: Int { skip + limit }

    /// Whether answering costs no more than copying a page of up to 1,000 pins' JSON (the newest,
    /// searched for nothing): quick enough to answer where the request is read.
    var isCheap: Bool { !needsWholeList && limit <= 1000 }

    /// The answer's bytes: the typed result, its pins written from the list's encoded pins.
    func answer(
        from list: StudentList, refreshedAt: Date?, stale: Bool, source: StudentsResult.Source, limitedTo: Int?
    ) throws -> RPCResult {
        var matches = list.entries[...]
        if !words.isEmpty {
            matches = matches.filter { entry in words.allSatisfy { entry.searchKey.contains($0) } }[...]
        }
        var distances: [Double]?
        if let near {
            let measured = matches
                .map { ($0, Geo.distanceKm(near.latitude, near.longitude, $0.location.latitude, $0.location.longitude)) }
                .filter { near.radiusKm == nil || $0.1 <= near.radiusKm! }
                .sorted { $0.1 < $1.1 }
            matches = measured.map(\.0)[...]
            distances = measured.map { ($0.1 * 10).rounded() / 10 }  // to a tenth of a kilometre, as shown
        }
        let start = min(skip, matches.count)
        let page = Array(matches.dropFirst(start).prefix(limit))
        let pins = try page.indices.map { index in
            let entry = page[index]
            let pinJSON = try entry.pinJSON ?? WireCoding.encode(entry.pin)
            guard let distances else { return pinJSON }
            return PinListAnswer.pin(pinJSON, adding: PinListAnswer.members(distanceKm: distances[start + index]))
        }
        let result = StudentsResult(
            students: [], total: matches.count, refreshedAt: refreshedAt, stale: stale, source: source, limitedTo: limitedTo)
        return .encoded(try PinListAnswer.bytes(result, key: "students", pins: pins))
    }
}
