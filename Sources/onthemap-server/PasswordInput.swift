import ArgumentParser
import Foundation
import OnTheMapServer
import OnTheMapSupport

/// `--password-stdin` and `--min-password-length`, shared by `user add` and `user passwd`: the
/// password comes on standard input, never in argv, and is checked against the same policy.
struct PasswordInput: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input (required: never put it in argv).")
    var passwordStdin = false

    @Option(parsing: .unconditional, help: "Shortest password accepted, in characters.")
    var minPasswordLength = PasswordPolicy.defaultMinimumLength

    @Option(parsing: .unconditional, help: ArgumentHelp("bcrypt cost factor.", visibility: .hidden))
    var bcryptCost = Int(PasswordHasher.defaultCost)

    /// `--min-password-length`, here and in `serve`.
    static let minimumLengthRange = NumberRange(1...PasswordPolicy.maximumBytes)
    /// `--bcrypt-cost`, here and in `seed`: the costs bcrypt has.
    static let bcryptCostRange = NumberRange(4...31)

    func validate() throws {
        guard passwordStdin else { throw ValidationError("Give the password on standard input with --password-stdin.") }
        try Self.minimumLengthRange.validate(minPasswordLength, "--min-password-length")
        try Self.bcryptCostRange.validate(bcryptCost, "--bcrypt-cost")
    }

    /// Reads and checks the password, and hashes it.
    func readHash() async throws -> String {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw CommandError("No password on standard input: give it on the first line.")
        }
        if let problem = PasswordPolicy(minimumLength: minPasswordLength).problem(with: line) {
            throw CommandError(problem + " Nothing changed.")
        }
        return try await PasswordHasher(cost: UInt8(bcryptCost)).hash(line)
    }
}
