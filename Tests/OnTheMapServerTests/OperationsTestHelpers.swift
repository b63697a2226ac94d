import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OnTheMapServer
import OnTheMapTestSupport

/// A demo database (one account, `count` pins), seeded with a cheap bcrypt cost: a SQLite file in
/// `directory`, or with `onSuiteBackend` the database of the backend the suite runs on
/// (`TestDatabase`). What `--database` takes.
func seededDatabase(in directory: TemporaryDirectory, count: Int = 5, onSuiteBackend: Bool = false) throws -> String {
    let database = onSuiteBackend ? try TestDatabase.fresh(in: directory, name: "db.sqlite") : directory.file("db.sqlite")
    let seeded = try runCommand(
        BuiltProducts.path("onthemap-server"),
        ["seed", "--database", database, "--demo", "--count", String(count), "--bcrypt-cost", "4"])
    guard seeded.status == 0 else { throw ServerProcessError(message: "seed failed: \(seeded.stderr)") }
    return database
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
