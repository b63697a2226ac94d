/// What the daemon asks the upstream with to learn whether its list changed (`If-None-Match`): the
/// first page's `ETag`, since a pin posted or moved goes to the first page; and, for a list of more
/// than one page, the last page's, since a pin deleted further down moves every later page by one,
/// so the last changes while the first does not.
struct ListTags: Codable, Equatable, Sendable {
    struct Page: Codable, Equatable, Sendable {
        var skip: Int
        var etag: String
    }

    /// How many students the list was asked for (the cache size then): the pages are of that query,
    /// so tags taken at another size are not sent (a SIGHUP or a restart may change it).
    var count: Int
    var first: String
    /// The last page with students on it, after the first; nil for a list of one page.
    var last: Page?
}
