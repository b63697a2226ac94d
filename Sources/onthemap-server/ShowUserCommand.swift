import ArgumentParser
import OnTheMapServer

/// `user show KEY|EMAIL`: one account, with its pin and session counts.
struct ShowUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one account.")
    @OptionGroup var target: AccountArgument
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let (record, pins, sessions) = try await target.with { storage, record in
            let pins = try await storage.countLocations(LocationQuery(uniqueKey: record.key))
            let sessions = try await storage.allSessions(accountKey: record.key).count
            return (record, pins, sessions)
        }
        var table = OutputTable(
            columns: ["key", "email", "name", "login", "state", "created", "pins", "sessions"], numericColumns: ["pins", "sessions"])
        table.rows = [record.tableRow + [String(pins), String(sessions)]]
        table.print(json: json)
    }
}
