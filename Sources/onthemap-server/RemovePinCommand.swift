import ArgumentParser
import OnTheMapModels
import OnTheMapServer

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
