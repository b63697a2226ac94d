import Foundation
import Logging
import OnTheMapModels

/// The cached student locations: the last good list, newest first, with what went wrong since.
///
/// Actor-isolated. The default `students` answer is serialized once per change, not per request.
actor StudentCache {
    private struct Persisted: Codable {
        var locations: [StudentLocation]
        var refreshedAt: Date
        var unplaceable: Int
    }

    /// One cached location with its search key, folded once.
    struct Entry: Sendable {
        var location: StudentLocation
        var searchKey: String
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
        guard let persisted = try? JSONDecoder().decode(Persisted.self, from: data) else {
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
        entries = sorted.map { Entry(location: $0, searchKey: SearchText.fold("\($0.firstName) \($0.lastName) \($0.mapString)")) }
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
        defaultAnswer = StudentsAnswer(
            students: entries.prefix(StudentsAnswer.defaultLimit).map(\.location), total: entries.count,
            refreshedAt: refreshedAt, stale: defaultAnswerIsStale
        ).wireJSON.serialized
    }

    private func persist() {
        guard let refreshedAt else { return }
        let persisted = Persisted(locations: entries.map(\.location), refreshedAt: refreshedAt, unplaceable: unplaceable)
        do {
            try PrivateFile.write(try JSONEncoder().encode(persisted), to: path)
        } catch {
            logger.warning("could not save the student cache", metadata: ["error": "\(error)"])
        }
    }
}

/// The result of `students`.
struct StudentsAnswer {
    static let defaultLimit = 100

    var students: [StudentLocation]
    /// With `near`: each student's distance from that point, in the same order.
    var distancesKm: [Double]? = nil
    var total: Int
    var refreshedAt: Date?
    var stale: Bool

    var wireJSON: WireJSON {
        let students: [WireJSON]
        if let distancesKm {
            students = zip(self.students, distancesKm).map { student, distance in
                guard case .object(var members) = student.wireJSON else { return student.wireJSON }
                // One decimal: tens of metres are noise for a place typed as "City, Country".
                members.append(("distanceKm", .number((distance * 10).rounded() / 10)))
                return .object(members)
            }
        } else {
            students = self.students.map(\.wireJSON)
        }
        return .object([
            ("students", .array(students)),
            ("total", .integer(total)),
            ("refreshedAt", refreshedAt.map { .string(WireTimestamp.milliseconds($0)) } ?? .null),
            ("stale", .bool(stale)),
        ])
    }
}

/// Text folded for case- and accent-insensitive search.
enum SearchText {
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
