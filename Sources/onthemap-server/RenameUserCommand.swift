import ArgumentParser
import OnTheMapModels
import OnTheMapServer

/// `user rename KEY|EMAIL [--first F] [--last L]`: the names the map shows, on the account and on its
/// pins (a pin carries the names it was posted with).
struct RenameUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Change an account's first or last name, and its pins' with it.")
    @OptionGroup var target: AccountArgument
    @Option(help: "New first name.") var first: String?
    @Option(help: "New last name.") var last: String?

    func validate() throws {
        guard first != nil || last != nil else { throw ValidationError("Give --first, --last or both.") }
        if let first { try AccountNames.check(first, option: "--first") }
        if let last { try AccountNames.check(last, option: "--last") }
    }

    func run() async throws {
        try await target.with { storage, record in
            let firstName = first ?? record.firstName
            let lastName = last ?? record.lastName
            let pins = try await storage.renameAccount(key: record.key, firstName: firstName, lastName: lastName)
            print("renamed \(record.shownName) to \(DisplayText.clean(firstName + " " + lastName)) (\(counted(pins, "pin")) renamed too)")
        }
    }
}
