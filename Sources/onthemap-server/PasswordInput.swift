import ArgumentParser
import Foundation
import OnTheMapServer

/// `--password-stdin` and `--min-password-length`, shared by `user add` and `user passwd`: the
/// password comes on standard input, never in argv, and is checked against the same policy.
struct PasswordInput: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input (required: never put it in argv).")
    var passwordStdin = false

    @Option(help: "Shortest password accepted, in characters.")
    var minPasswordLength = PasswordPolicy.defaultMinimumLength

    @Option(help: ArgumentHelp("bcrypt cost factor.", visibility: .hidden))
    var bcryptCost: UInt8 = PasswordHasher.defaultCost

    func validate() throws {
        guard passwordStdin else { throw ValidationError("Give the password on standard input with --password-stdin.") }
        guard (1...PasswordPolicy.maximumBytes).contains(minPasswordLength) else {
            throw ValidationError("--min-password-length must be from 1 to \(PasswordPolicy.maximumBytes).")
        }
    }

    /// Reads and checks the password, and hashes it.
    func readHash() async throws -> String {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw CommandError("No password on standard input: give it on the first line.")
        }
        if let problem = PasswordPolicy(minimumLength: minPasswordLength).problem(with: line) {
            throw CommandError(problem + " Nothing changed.")
        }
        return try await PasswordHasher(cost: bcryptCost).hash(line)
    }
}
