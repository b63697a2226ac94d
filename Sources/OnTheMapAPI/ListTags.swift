/// What a client asks the upstream with to learn whether its list changed (`If-None-Match`): the
/// first page's `ETag`, since a pin posted or moved goes to the first page; and, for a list of more
/// than one page, the last page's, since a pin deleted further down moves every later page by one,
/// and one added below every other (an older pin put in the database) joins the last page, so the
/// last changes while the first does not.
public struct ListTags: Codable, Equatable, Sendable {
    public struct Page: Codable, Equatable, Sendable {
        public var skip: Int
        public var etag: String

        public init(skip: Int, etag: String) {
            self.skip = skip
            self.etag = etag
        }
    }

    /// How many students the list was asked for (the cache size then): the pages are of that query,
    /// so tags taken at another size are not sent (a SIGHUP or a restart may change it).
    public var count: Int
    public var first: String
    /// The page that ends the list, after the first; nil for a list of one page. A list that ends
    /// exactly at a page's end has the page one student back here (a skip of 999, 1999, …): it
    /// changes both when a student is deleted and when one is added at the end.
    public var last: Page?

    public init(count: Int, first: String, last: Page?) {
        self.count = count
        self.first = first
        self.last = last
    }
}
