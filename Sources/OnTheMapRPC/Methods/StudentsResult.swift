import FoundationEssentials
import OnTheMapModels

/// `students`' result: `{students, total, refreshedAt, stale, source}`.
public struct StudentsResult: RPCResultType, Equatable {
    /// Each student's pin, newest first (nearest first with `near`, each with `distanceKm`).
    public var students: [StudentPin]
    /// How many matched before `limit` and `skip`.
    public var total: Int
    public var refreshedAt: Date?
    /// True when the last refresh failed or the list is older than two refresh intervals.
    public var stale: Bool
    /// Where the answer came from: `cache` (the daemon's cached newest students) or `server` (asked
    /// for more than the cache holds, so fetched from the server for this request).
    public var source: Source
    /// Set when the answer looked at only the newest this many students: the server could not be
    /// reached (the cache's count, while the server may hold more), or it holds more than
    /// `StudentsParams.maximumFetched`. Absent when every student that could match was looked at.
    public var limitedTo: Int?

    /// Where a `students` answer came from.
    public enum Source: String, Sendable, Codable {
        case cache, server
    }

    /// Creates a result.
    public init(
        students: [StudentPin], total: Int, refreshedAt: Date?, stale: Bool, source: Source = .cache, limitedTo: Int? = nil
    ) {
        self.students = students
        self.total = total
        self.refreshedAt = refreshedAt
        self.stale = stale
        self.source = source
        self.limitedTo = limitedTo
    }
}
