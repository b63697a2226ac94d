import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OnTheMapServer
import OnTheMapTestSupport

/// What a test sees of one HTTP exchange.
struct HTTPReply {
    var status: Int
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }
}

/// One request through AsyncHTTPClient to a real server.
func http(
    _ method: HTTPMethod, _ url: String, json: String? = nil, headers: [(String, String)] = []
) async throws -> HTTPReply {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let json {
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: json))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 4 * 1024 * 1024)
    return HTTPReply(
        status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
        body: String(buffer: body))
}

/// A demo database (one account, `count` pins) in `directory`, seeded with a cheap bcrypt cost.
func seededDatabase(in directory: TemporaryDirectory, count: Int = 5) throws -> String {
    let path = directory.file("db.sqlite")
    let seeded = try runCommand(
        BuiltProducts.path("onthemap-server"),
        ["seed", "--db", path, "--demo", "--count", String(count), "--bcrypt-cost", "4"])
    guard seeded.status == 0 else { throw ServerProcessError(message: "seed failed: \(seeded.stderr)") }
    return path
}

/// The login body for the demo account, with `password`.
func loginBody(password: String = DemoSeed.password) -> String {
    #"{"udacity":{"username":"\#(DemoSeed.email)","password":"\#(password)"}}"#
}

/// The value of the sample `name{labels…}` in a Prometheus exposition, if present; `labels` must all
/// appear among the sample's labels, in any order.
func sample(_ exposition: String, _ name: String, _ labels: [String: String] = [:]) -> Double? {
    for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
        guard let space = line.lastIndex(of: " ") else { continue }
        let series = line[..<space]
        let seriesName = series.prefix { $0 != "{" }
        guard seriesName == name else { continue }
        let labelText = series.dropFirst(seriesName.count)
        if labels.allSatisfy({ labelText.contains("\($0.key)=\"\($0.value)\"") }) {
            return Double(line[line.index(after: space)...])
        }
    }
    return nil
}
