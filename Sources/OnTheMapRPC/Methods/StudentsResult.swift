#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OnTheMapModels

/// `students`' result: `{students, total, refreshedAt, stale}`. The daemon writes it from bytes the
/// cache keeps (see `StudentsAnswer`); a test holds those bytes to this declaration.
public struct StudentsResult: RPCResultType, Equatable {
    /// Each student exactly as the API has it (`StudentLocation.wireJSON`), with `distanceKm` after a
    /// `near` query.
    public var students: [WireJSON]
    /// How many matched before `limit` and `skip`.
    public var total: Int
    public var refreshedAt: Date?
    /// True when the last refresh failed or the list is older than two refresh intervals.
    public var stale: Bool

    /// Creates a result.
    public init(students: [WireJSON], total: Int, refreshedAt: Date?, stale: Bool) {
        self.students = students
        self.total = total
        self.refreshedAt = refreshedAt
        self.stale = stale
    }

    public var wireJSON: WireJSON {
        .object([
            ("students", .array(students)), ("total", .integer(total)), ("refreshedAt", .timestamp(refreshedAt)),
            ("stale", .bool(stale)),
        ])
    }

    public init(wireJSON: WireJSON) {
        if case .array(let students)? = wireJSON["students"] { self.students = students } else { students = [] }
        total = wireJSON["total"]?.intValue ?? 0
        refreshedAt = wireJSON["refreshedAt"]?.stringValue.flatMap(WireTimestamp.parse)
        stale = wireJSON["stale"]?.boolValue ?? false
    }
}

extension WireJSON {
    /// A wire timestamp to the millisecond, or null.
    static func timestamp(_ date: Date?) -> WireJSON {
        date.map { .string(WireTimestamp.milliseconds($0)) } ?? .null
    }
}
