import Foundation

/// A query string decoded as HTML forms and Parse's clients encode it: `+` is a space, then percent
/// escapes (Python's `urlencode` writes `where={"a":+1}` as `where=%7B%22a%22%3A+1%7D`).
enum FormQuery {
    static func parse(_ query: String?) -> [String: String] {
        var values: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            values[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return values
    }
}
