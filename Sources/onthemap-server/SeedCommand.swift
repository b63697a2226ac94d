import ArgumentParser
import OnTheMapServer
import OnTheMapSupport

/// `onthemap-server seed --demo`: fills a database with demo students and a demo account.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed", abstract: "Fill the database with demo data.")

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Add the demo account and demo students.")
    var demo = false

    @Option(parsing: .unconditional, help: "How many demo students to add.")
    var count = 240

    @Option(parsing: .unconditional, help: ArgumentHelp("bcrypt cost factor.", visibility: .hidden))
    var bcryptCost = Int(PasswordHasher.defaultCost)

    func validate() throws {
        guard demo else { throw ValidationError("Say what to seed: --demo.") }
        try NumberRange(atLeast: 0).validate(count, "--count")
        try PasswordInput.bcryptCostRange.validate(bcryptCost, "--bcrypt-cost")
    }

    func run() async throws {
        // Seeding a new database is what `make demo` and a first try do: it creates one by intent.
        let storage = try await database.open(ifNew: .create)
        let summary = try await storage.closing {
            try await DemoSeed.seed(storage: storage, count: count, hasher: PasswordHasher(cost: UInt8(bcryptCost)))
        }
        print("added \(summary.locationsAdded) demo students to \(try database.resolvedTarget)")
        if summary.accountCreated {
            print("demo account: \(DemoSeed.email) / \(DemoSeed.password) (key \(summary.accountKey))")
        } else {
            print("demo account \(DemoSeed.email) already exists (key \(summary.accountKey))")
        }
    }
}
