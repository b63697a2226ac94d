import ArgumentParser
import Foundation
import OnTheMapModels
import OnTheMapServer
import OnTheMapSupport

/// `pin list [--user KEY|EMAIL] [--limit N] [--after OBJECTID]`, newest first, a page at a time.
struct ListPinsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List pins, newest first.",
        discussion: """
            Pages: --limit pins at most, then the next page with --after and the last objectId listed. \
            The order is by last update, newest first, then by objectId, so pages neither repeat nor skip a \
            pin that did not move meanwhile.
            """)
    @OptionGroup var database: DatabaseOption
    @Option(help: "Only this account's pins (key or email).") var user: String?
    // `.unconditional`: `--limit -3` is a value to refuse, not a missing one.
    @Option(parsing: .unconditional, help: "At most this many pins (1 or more).") var limit = 1000
    @Option(help: ArgumentHelp("Start after this pin (the last objectId of the previous page).", valueName: "objectId"))
    var after: String?
    @Flag(help: "JSON for scripts.") var json = false

    func validate() throws {
        try NumberRange(atLeast: 1).validate(limit, "--limit")
    }

    func run() async throws {
        let pins = try await database.with { storage in
            let key = try await user.asyncMap { try await findAccount($0, in: storage).key }
            return try await page(of: storage, uniqueKey: key)
        }
        var table = OutputTable(
            // The link last: a script's `cut -f5` still reads the latitude.
            columns: ["objectId", "uniqueKey", "name", "place", "latitude", "longitude", "updated", "link"],
            numericColumns: ["latitude", "longitude"], leftOutFirst: ["longitude", "latitude", "uniqueKey", "updated"])
        table.rows = pins.map {
            [$0.objectId, $0.uniqueKey, "\($0.firstName) \($0.lastName)", $0.mapString, "\($0.latitude)", "\($0.longitude)",
             $0.updatedAt.map(shortDate) ?? "", $0.mediaURL]
        }
        table.print(json: json)
    }

    /// Newest first: `updatedAt` descending, then `objectId` (the storage's tie-break). The page after
    /// a pin is what follows it in the database's own order: the database is asked for the pins up to
    /// a millisecond newer than the mark (a time read back and bound again may move by a little), and
    /// the ones up to and including the mark are passed over here. Comparing times in Swift instead
    /// would disagree with the database's order for pins a few microseconds apart.
    private func page(of storage: any ServerStorage, uniqueKey: String?) async throws -> [StudentLocation] {
        let newestFirst = [SortTerm(column: "updatedAt", descending: true)]
        guard let after else {
            return try await storage.locations(LocationQuery(limit: limit, order: newestFirst, uniqueKey: uniqueKey))
        }
        guard let mark = try await storage.location(objectId: after), let marked = mark.updatedAt else {
            throw CommandError("No pin has the objectId \(after); give the last objectId of the previous page.")
        }
        let upTo = [LocationFilter(column: "updatedAt", comparison: .lessOrEqual, values: [.date(marked.addingTimeInterval(0.001))])]
        let batch = min(limit, 10_000) + 100
        var page: [StudentLocation] = []
        var passedMark = false
        var skip = 0
        while page.count < limit {
            let pins = try await storage.locations(
                LocationQuery(limit: batch, skip: skip, order: newestFirst, uniqueKey: uniqueKey, filters: upTo))
            for pin in pins where page.count < limit {
                if passedMark { page.append(pin) } else if pin.objectId == after { passedMark = true }
            }
            guard pins.count == batch else { break }
            skip += pins.count
        }
        guard passedMark else {
            throw CommandError("The pin \(after) moved while the list was read; list from the start again.")
        }
        return page
    }
}
