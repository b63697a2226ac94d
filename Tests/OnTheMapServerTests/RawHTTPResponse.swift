import Foundation

/// HTTP/1.1 responses as they came off a raw socket: status line, header lines in their order, body
/// (by `Content-Length`).
struct RawHTTPResponse {
    var statusLine: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var status: Int? { Int(statusLine.split(separator: " ").dropFirst().first ?? "") }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The complete responses at the start of `bytes`, in order.
    static func parseAll(_ bytes: [UInt8]) -> [RawHTTPResponse] {
        var responses: [RawHTTPResponse] = []
        var rest = bytes[...]
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while let end = rest.firstRange(of: separator) {
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let length = Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
            guard rest[end.upperBound...].count >= length else { break }
            let bodyEnd = end.upperBound + length
            responses.append(
                RawHTTPResponse(statusLine: lines[0], headers: headers, body: Array(rest[end.upperBound..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return responses
    }
}
