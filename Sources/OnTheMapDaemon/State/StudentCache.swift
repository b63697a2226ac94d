import Foundation
import Logging
import OnTheMapModels

/// The cached student locations: the last good list, newest first, with what went wrong since.
///
/// Actor-isolated. The default `students` answer is serialized once per change, not per request.
actor StudentCache {
    /// One cached location with its search key, folded once, and its JSON, written once.
    struct Entry: Sendable {
        var location: StudentLocation
        var searchKey: String
        /// The bytes of `location.wireJSON.serialized`, a slice of one buffer shared by all entries.
        var json: ArraySlice<UInt8>
    }

    private(set) var entries: [Entry] = []
    private(set) var refreshedAt: Date?
    private(set) var lastError: String?
    private(set) var unplaceable = 0
    /// `{"students":[…100 newest…],"total":N,"refreshedAt":…,"stale":…}`, ready to splice into a response.
    private var defaultAnswer: String?
    /// The `stale` written into `defaultAnswer`.
    private var defaultAnswerIsStale = false
    private var inFlight: Task<Void, any Error>?
    private let path: String
    private let staleAfter: TimeInterval
    private let logger: Logger

    /// Called whenever what `status` or the default `students` answer shows changes.
    private let onChange: @Sendable () -> Void

    init(path: String, staleAfter: TimeInterval, logger: Logger, onChange: @escaping @Sendable () -> Void = {}) {
        self.path = path
        self.staleAfter = staleAfter
        self.logger = logger
        self.onChange = onChange
    }

    var count: Int { entries.count }

    /// The newest cached pin of an account, if it is among the cached locations.
    func newestLocation(ofAccount key: String) -> StudentLocation? {
        entries.first { $0.location.uniqueKey == key }?.location
    }

    /// Whether the list may be out of date: the last refresh failed, or it is older than expected.
    func isStale(now: Date = Date()) -> Bool {
        guard let refreshedAt else { return lastError != nil }
        return lastError != nil || now.timeIntervalSince(refreshedAt) > staleAfter
    }

    /// When the list turns stale by age alone, if it is fresh now.
    func staleDeadline(now: Date = Date()) -> Date? {
        guard let refreshedAt, !isStale(now: now) else { return nil }
        return refreshedAt.addingTimeInterval(staleAfter)
    }

    /// The default `students` answer, its `stale` true as of now.
    func currentDefaultAnswer() -> String? {
        if defaultAnswer != nil, isStale() != defaultAnswerIsStale { rebuildDefaultAnswer() }
        return defaultAnswer
    }

    /// Loads the list persisted by an earlier run.
    func load() {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        guard let persisted = CachedList(fileContents: data) else {
            logger.warning("ignoring an unreadable cache file", metadata: ["path": "\(path)"])
            return
        }
        install(persisted.locations, refreshedAt: persisted.refreshedAt, unplaceable: persisted.unplaceable)
    }

    /// Fetches a new list; concurrent callers share one fetch. Failures keep the old list and set `lastError`.
    func refresh(_ fetch: @escaping @Sendable () async throws -> StudentLocationList) async throws {
        if let inFlight { return try await inFlight.value }
        let task = Task { try await self.runFetch(fetch) }
        inFlight = task
        defer { inFlight = nil }
        try await task.value
    }

    private func runFetch(_ fetch: @Sendable () async throws -> StudentLocationList) async throws {
        do {
            let list = try await fetch()
            lastError = nil
            install(list.results, refreshedAt: Date(), unplaceable: list.unplaceable.count)
            persist()
        } catch {
            lastError = "\(error)"
            rebuildDefaultAnswer()
            onChange()
            throw error
        }
    }

    /// Forgets the list in memory and on disk (logout).
    func clear() {
        entries = []
        refreshedAt = nil
        lastError = nil
        unplaceable = 0
        defaultAnswer = nil
        onChange()
        PrivateFile.remove(path)
    }

    private func install(_ locations: [StudentLocation], refreshedAt: Date, unplaceable: Int) {
        let sorted = locations.sorted { ($0.updatedAt ?? .distantPast) > ($1.updatedAt ?? .distantPast) }
        // Every answer and the cache file splice these bytes instead of serializing per request.
        var json: [UInt8] = []
        json.reserveCapacity(sorted.count * 320)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(sorted.count)
        for index in sorted.indices {
            let start = json.count
            sorted[index].writeWireJSON(into: &json)
            ranges.append(start..<json.count)
        }
        entries = zip(sorted, ranges).map { location, range in
            Entry(
                location: location, searchKey: SearchText.fold("\(location.firstName) \(location.lastName) \(location.mapString)"),
                json: json[range])
        }
        self.refreshedAt = refreshedAt
        self.unplaceable = unplaceable
        rebuildDefaultAnswer()
        onChange()
    }

    private func rebuildDefaultAnswer() {
        guard let refreshedAt else {
            defaultAnswer = nil
            return
        }
        defaultAnswerIsStale = isStale()
        defaultAnswer = String(decoding: StudentsAnswer(
            students: entries.prefix(StudentsAnswer.defaultLimit).map(\.json), total: entries.count,
            refreshedAt: refreshedAt, stale: defaultAnswerIsStale
        ).serializedBytes, as: UTF8.self)
    }

    private func persist() {
        guard let refreshedAt else { return }
        let bytes = CachedList.fileBytes(locationsJSON: entries.map(\.json), refreshedAt: refreshedAt, unplaceable: unplaceable)
        do {
            try PrivateFile.write(Data(bytes), to: path)
        } catch {
            logger.warning("could not save the student cache", metadata: ["error": "\(error)"])
        }
    }
}

/// Text folded for case- and accent-insensitive search.
enum SearchText {
    static func fold(_ text: String) -> String {
        // ASCII only folds case: lowered here, since Foundation's folding took 1 ms per 1,000 names.
        var ascii = true
        let lowered = String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
            var count = 0
            for byte in text.utf8 {
                guard byte < 0x80 else {
                    ascii = false
                    break
                }
                buffer[count] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
                count += 1
            }
            return ascii ? count : 0
        }
        guard !ascii else { return lowered }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
