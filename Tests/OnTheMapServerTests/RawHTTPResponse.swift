import Foundation
import OnTheMapTestSupport

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

    private static let headEnd: [UInt8] = Array("\r\n\r\n".utf8)

    /// The head at the start of `bytes` (a HEAD request's answer has no body to follow it), and where
    /// it ends.
    static func head(_ bytes: ArraySlice<UInt8>) -> (response: RawHTTPResponse, end: Int)? {
        guard let end = bytes.firstRange(of: headEnd) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (RawHTTPResponse(statusLine: lines[0], headers: headers, body: []), end.upperBound)
    }

    /// The complete responses at the start of `bytes`, in order.
    static func parseAll(_ bytes: [UInt8]) -> [RawHTTPResponse] {
        var responses: [RawHTTPResponse] = []
        var rest = bytes[...]
        while let (response, bodyStart) = head(rest) {
            let length = Int(response.header("Content-Length") ?? "0") ?? 0
            guard rest[bodyStart...].count >= length else { break }
            var complete = response
            complete.body = Array(rest[bodyStart..<bodyStart + length])
            responses.append(complete)
            rest = rest[(bodyStart + length)...]
        }
        return responses
    }
}

extension RawSocket {
    /// Sends `request` and reads `count` whole responses (fewer if they do not come in 20 s).
    func exchange(_ request: [UInt8], responses count: Int = 1) -> [RawHTTPResponse] {
        send(request, timeout: .seconds(10))
        let bytes = receive(timeout: .seconds(20)) { RawHTTPResponse.parseAll($0).count >= count }
        return RawHTTPResponse.parseAll(bytes)
    }
}
