#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OnTheMapModels

/// `status`'s result and `statusChanged`'s params: the one shape the daemon builds and serializes and
/// the client's `status`, its status-bar formats and `watch` read.
public struct StatusResult: RPCResultType, Equatable {
    /// The cached student list.
    public struct Students: Sendable, Equatable {
        public var count: Int
        /// Records of the last refresh left out because they cannot go on a map.
        public var unplaceable: Int
        public var refreshedAt: Date?
        /// True when the last refresh failed (`lastError` says why) or the list is older than two
        /// refresh intervals.
        public var stale: Bool
        public var lastError: String?

        public init(count: Int, unplaceable: Int, refreshedAt: Date?, stale: Bool, lastError: String?) {
            self.count = count
            self.unplaceable = unplaceable
            self.refreshedAt = refreshedAt
            self.stale = stale
            self.lastError = lastError
        }
    }

    /// The user's own newest pin, from the cache.
    public struct Pin: Sendable, Equatable {
        public var objectId: String
        public var mapString: String
        public var latitude: Double
        public var longitude: Double

        public init(objectId: String, mapString: String, latitude: Double, longitude: Double) {
            self.objectId = objectId
            self.mapString = mapString
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public var version: String
    public var apiURL: String
    /// Nil when logged out.
    public var account: AccountInfo?
    public var students: Students
    public var myPin: Pin?
    /// What is in flight (`login`, `refresh`, `postPin`, …).
    public var busy: [String]
    /// Seconds since the daemon started; the daemon adds it per answer, so nil in the stored answer.
    public var uptime: Double?

    public init(
        version: String, apiURL: String, account: AccountInfo?, students: Students, myPin: Pin?, busy: [String],
        uptime: Double? = nil
    ) {
        self.version = version
        self.apiURL = apiURL
        self.account = account
        self.students = students
        self.myPin = myPin
        self.busy = busy
        self.uptime = uptime
    }

    public var loggedIn: Bool { account != nil }
}

extension StatusResult {
    /// The result in its wire order; `uptime` last, so the daemon can store the rest and append it.
    public var wireJSON: WireJSON {
        var members: [(String, WireJSON)] = [
            ("version", .string(version)),
            ("apiURL", .string(apiURL)),
            ("loggedIn", .bool(loggedIn)),
            ("account", account?.wireJSON ?? .null),
            ("students", .object([
                ("count", .integer(students.count)),
                ("unplaceable", .integer(students.unplaceable)),
                ("refreshedAt", .timestamp(students.refreshedAt)),
                ("stale", .bool(students.stale)),
                ("lastError", students.lastError.map(WireJSON.string) ?? .null),
            ])),
            ("myPin", myPin.map { pin in
                .object([
                    ("objectId", .string(pin.objectId)), ("mapString", .string(pin.mapString)),
                    ("latitude", .number(pin.latitude)), ("longitude", .number(pin.longitude)),
                ])
            } ?? .null),
            ("busy", .array(busy.map(WireJSON.string))),
        ]
        if let uptime { members.append(("uptime", .number(uptime))) }
        return .object(members)
    }

    /// Reads a status; what is missing reads as empty, and `account` only counts when `loggedIn` is true.
    public init(wireJSON: WireJSON) {
        version = wireJSON["version"]?.stringValue ?? ""
        apiURL = wireJSON["apiURL"]?.stringValue ?? ""
        if wireJSON["loggedIn"]?.boolValue == true, let account = wireJSON["account"], !account.isNull {
            self.account = AccountInfo(wireJSON: account)
        } else {
            account = nil
        }
        let students = wireJSON["students"]
        self.students = Students(
            count: students?["count"]?.intValue ?? 0, unplaceable: students?["unplaceable"]?.intValue ?? 0,
            refreshedAt: students?["refreshedAt"]?.stringValue.flatMap(WireTimestamp.parse),
            stale: students?["stale"]?.boolValue ?? false, lastError: students?["lastError"]?.stringValue)
        if let pin = wireJSON["myPin"], let mapString = pin["mapString"]?.stringValue {
            myPin = Pin(
                objectId: pin["objectId"]?.stringValue ?? "", mapString: mapString,
                latitude: pin["latitude"]?.doubleValue ?? 0, longitude: pin["longitude"]?.doubleValue ?? 0)
        } else {
            myPin = nil
        }
        if case .array(let busy)? = wireJSON["busy"] { self.busy = busy.compactMap(\.stringValue) } else { busy = [] }
        uptime = wireJSON["uptime"]?.doubleValue
    }
}
