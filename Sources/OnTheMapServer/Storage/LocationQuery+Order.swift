import OnTheMapModels

/// A list request's `order` (comma-separated keys, `-` for descending) that cannot be used.
struct OrderProblem: Error {
    /// What is wrong, in a sentence without its final full stop (each dialect words its own error).
    let message: String
}

extension LocationQuery {
    /// The most pins a list request of either dialect may ask for (`limit`).
    static let maxLimit = 1000
    /// The `limit` a list request may give.
    static let limitRange = 0...maxLimit
    /// The `skip` a list request may give.
    static let skipRange = 0...Int(Int32.max)

    /// The most terms an `order` may have: each sortable key once.
    static var maxOrderTerms: Int { sortableColumns.count }

    /// `order` as sort terms, the one reading of both dialects: known keys, each at most once (so at
    /// most `maxOrderTerms`); 2,000 keys used to reach the database and come back as a 500.
    static func order(_ text: String) throws(OrderProblem) -> [SortTerm] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maxOrderTerms else {
            throw OrderProblem(message: "order takes at most \(maxOrderTerms) keys, each once; it has \(parts.count)")
        }
        var terms: [SortTerm] = []
        for part in parts {
            let term = part.trimmingWhitespace()
            let descending = term.hasPrefix("-")
            let key = descending ? String(term.dropFirst()) : term
            guard sortableColumns.contains(key) else {
                let known = sortableColumns.sorted().joined(separator: ", ")
                throw OrderProblem(message: "cannot order by '\(key.prefix(64))'; use one of \(known), with - for descending")
            }
            guard !terms.contains(where: { $0.column == key }) else {
                throw OrderProblem(message: "order names \(key) twice")
            }
            terms.append(SortTerm(column: key, descending: descending))
        }
        return terms
    }
}
