import ArgumentParser
import OnTheMapModels
import OnTheMapServer

/// `pin list [--user KEY|EMAIL]`, newest first.
struct ListPinsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List pins, newest first.")
    @OptionGroup var database: DatabaseOption
    @Option(help: "Only this account's pins (key or email).") var user: String?
    @Option(help: "At most this many (1…1000).") var limit = 1000
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let pins = try await database.with { storage in
            let key = try await user.asyncMap { try await findAccount($0, in: storage).key }
            return try await storage.locations(
                LocationQuery(limit: min(max(limit, 1), 1000), order: [SortTerm(column: "updatedAt", descending: true)], uniqueKey: key))
        }
        var table = OutputTable(columns: ["objectId", "uniqueKey", "name", "place", "latitude", "longitude", "updated"])
        table.rows = pins.map {
            [$0.objectId, $0.uniqueKey, "\($0.firstName) \($0.lastName)", $0.mapString, "\($0.latitude)", "\($0.longitude)",
             $0.updatedAt.map(shortDate) ?? ""]
        }
        table.print(json: json)
    }
}
