import ArgumentParser
import OnTheMapModels
import OnTheMapServer

/// `onthemap-server pin …`: pins as an operator sees them.
struct PinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "List and remove pins.", subcommands: [ListPinsCommand.self, RemovePinCommand.self])
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
