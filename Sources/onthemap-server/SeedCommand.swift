import ArgumentParser
import OnTheMapServer

/// `onthemap-server seed --demo`: fills a database with demo students and a demo account.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed", abstract: "Fill the database with demo data.")

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Add the demo account and demo students.")
    var demo = false

    @Option(help: "How many demo students to add.")
    var count = 240

    @Option(help: ArgumentHelp("bcrypt cost factor.", visibility: .hidden))
    var bcryptCost: UInt8 = PasswordHasher.defaultCost

    func validate() throws {
        guard demo else { throw ValidationError("Say what to seed: --demo.") }
        guard count >= 0 else { throw ValidationError("--count must be 0 or more.") }
    }

    func run() async throws {
        // Seeding a new database is what `make demo` and a first try do: it creates one by intent.
        let storage = try await database.open(ifNew: .create)
        let summary = try await DemoSeed.seed(storage: storage, count: count, hasher: PasswordHasher(cost: bcryptCost))
        await storage.close()
        print("added \(summary.locationsAdded) demo students to \(try database.resolvedTarget)")
        if summary.accountCreated {
            print("demo account: \(DemoSeed.email) / \(DemoSeed.password) (key \(summary.accountKey))")
        } else {
            print("demo account \(DemoSeed.email) already exists (key \(summary.accountKey))")
        }
    }
}
