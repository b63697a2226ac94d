import FoundationEssentials
import OnTheMapModels

/// `status`'s result and `statusChanged`'s params: the one shape the daemon builds and encodes and
/// the client's `status`, its status-bar formats and `watch` read.
public struct StatusResult: RPCResultType, Equatable {
    /// The cached student list.
    public struct Students: Sendable, Equatable, Codable {
        public var count: Int
        /// Records of the last refresh left out (a required field missing, a coordinate out of range).
        public var skipped: Int
        /// Why, naming the fields: "2 records left out: firstName is missing (2)". Absent when none were.
        public var skippedWhy: String?
        /// When the list was last fetched; absent before the first fetch of this session.
        public var refreshedAt: Date?
        /// True when the last refresh failed (`lastError` says why) or the list is older than two
        /// refresh intervals.
        public var stale: Bool
        public var lastError: String?

        public init(
            count: Int, skipped: Int = 0, skippedWhy: String? = nil, refreshedAt: Date?, stale: Bool, lastError: String?
        ) {
            self.count = count
            self.skipped = skipped
            self.skippedWhy = skippedWhy
            self.refreshedAt = refreshedAt
            self.stale = stale
            self.lastError = lastError
        }
    }

    public var version: String
    public var apiURL: String
    public var loggedIn: Bool
    /// Absent when logged out.
    public var account: AccountInfo?
    public var students: Students
    /// The user's own newest pin, from the cache.
    public var myPin: StudentPin?
    /// What is in flight (`login`, `refresh`, `postPin`, …).
    public var busy: [String]
    /// Seconds since the daemon started.
    public var uptime: Double

    public init(
        version: String, apiURL: String, account: AccountInfo?, students: Students, myPin: StudentPin?, busy: [String],
        uptime: Double
    ) {
        self.version = version
        self.apiURL = apiURL
        self.loggedIn = account != nil
        self.account = account
        self.students = students
        self.myPin = myPin
        self.busy = busy
        self.uptime = uptime
    }
}
