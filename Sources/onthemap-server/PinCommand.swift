import ArgumentParser
import OnTheMapModels
import OnTheMapServer

/// `onthemap-server pin …`: pins as an operator sees them.
struct PinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "List and remove pins.", subcommands: [ListPinsCommand.self, RemovePinCommand.self])
}

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

/// `pin remove OBJECTID`.
struct RemovePinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a pin.")
    @OptionGroup var database: DatabaseOption
    @Argument(help: "The pin's objectId.") var objectId: String
    @Flag(help: "Do not ask (required when standard input is not a terminal).") var yes = false

    func run() async throws {
        try await database.with { storage in
            guard let pin = try await storage.location(objectId: objectId) else {
                throw CommandError("No pin has the objectId \(objectId).")
            }
            try Confirmation.require("Delete the pin of \(pin.firstName) \(pin.lastName) at \(pin.mapString)?", yes: yes)
            _ = try await storage.removeLocation(objectId: objectId)
            print("removed pin \(objectId)")
        }
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
