import Foundation

/// One term of an `order` parameter: a column, ascending or descending.
public struct SortTerm: Hashable, Sendable {
    public var column: String
    public var descending: Bool

    public init(column: String, descending: Bool) {
        self.column = column
        self.descending = descending
    }
}

/// Which pins to list, in which order.
public struct LocationQuery: Hashable, Sendable {
    /// The keys a client may sort by: the wire names, which are also the column names.
    public static let sortableColumns: Set<String> = [
        "objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL", "latitude", "longitude",
        "createdAt", "updatedAt",
    ]

    public var limit: Int
    public var skip: Int
    public var order: [SortTerm]
    public var uniqueKey: String?
    /// Further conditions (the Parse dialect's `where`).
    public var filters: [LocationFilter]

    public init(
        limit: Int = 100, skip: Int = 0, order: [SortTerm] = [], uniqueKey: String? = nil, filters: [LocationFilter] = []
    ) {
        self.limit = limit
        self.skip = skip
        self.order = order
        self.uniqueKey = uniqueKey
        self.filters = filters
    }

    /// `ORDER BY` text for the terms (column names checked against `sortableColumns`), then `objectId`.
    var orderByClause: String {
        let terms = order.filter { Self.sortableColumns.contains($0.column) }
            .map { "\($0.column) \($0.descending ? "DESC" : "ASC")" }
        return (terms + ["objectId ASC"]).joined(separator: ", ")
    }
}
