import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OnTheMapServer
import OnTheMapTestSupport

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
