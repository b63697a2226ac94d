/// Parameters of `GET /StudentLocation`.
public struct StudentLocationQuery: Sendable, Hashable {
    /// At most this many records (the server's default is 100).
    public var limit: Int?
    /// Skip this many records first (paging).
    public var skip: Int?
    /// Comma-separated keys, `-` for descending; `-updatedAt` is what the app uses.
    public var order: String?
    /// Only the records of this account.
    public var uniqueKey: String?

    /// Creates a query.
    public init(limit: Int? = nil, skip: Int? = nil, order: String? = nil, uniqueKey: String? = nil) {
        self.limit = limit
        self.skip = skip
        self.order = order
        self.uniqueKey = uniqueKey
    }

    /// The 100 most recently updated locations: what the app shows.
    public static let mostRecent = StudentLocationQuery(limit: 100, order: "-updatedAt")

    var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let limit { items.append(("limit", String(limit))) }
        if let skip { items.append(("skip", String(skip))) }
        if let order { items.append(("order", order)) }
        if let uniqueKey { items.append(("uniqueKey", uniqueKey)) }
        return items
    }
}
