import Foundation
import OnTheMapModels

/// `onthemap-server seed --demo`: plausible students on real cities, plus an account to log in with.
public enum DemoSeed {
    /// The demo account's email (stated in the README).
    public static let email = "demo@onthemap.example"
    /// The demo account's password (stated in the README; demo data only).
    public static let password = "onthemap-demo"
    /// The demo account's names.
    public static let firstName = "Ada"
    public static let lastName = "Lovelace"

    /// What a seed run did.
    public struct Summary: Sendable {
        public var accountKey: String
        public var accountCreated: Bool
        public var locationsAdded: Int
    }

    /// Adds the demo account and `count` students whose `updatedAt` spread over the last 60 days.
    /// Seeding a database that already has the demo account adds nothing, so scripts can run it every
    /// time. The same `seed` gives the same students, so demo output is reproducible.
    public static func seed(
        storage: any ServerStorage, count: Int = 240, hasher: PasswordHasher = PasswordHasher(), seed: UInt64 = 2015,
        now: Date = Date()
    ) async throws -> Summary {
        if let existing = try await storage.account(email: email) {
            return Summary(accountKey: existing.key, accountCreated: false, locationsAdded: 0)
        }
        let account = try await storage.createAccount(
            NewAccount(
                email: email, passwordHash: try await hasher.hash(password), firstName: firstName, lastName: lastName,
                createdAt: now))
        let students = students(count: count, seed: seed, now: now)
        try await storage.insertLocations(students)
        return Summary(accountKey: account.key, accountCreated: true, locationsAdded: students.count)
    }

    /// Deterministic demo students (only their objectIds are random).
    static func students(count: Int, seed: UInt64, now: Date) -> [StudentLocation] {
        var random = SplitMix64(seed: seed)
        let sixtyDays = 60.0 * 24 * 3600
        return (0..<count).map { _ in
            let first = DemoNames.first[Int(random.next() % UInt64(DemoNames.first.count))]
            let last = DemoNames.last[Int(random.next() % UInt64(DemoNames.last.count))]
            let city = DemoCities.all[Int(random.next() % UInt64(DemoCities.all.count))]
            // A few kilometres of jitter, so namesakes in one city do not share a pixel.
            let latitude = city.latitude + (random.unit() - 0.5) * 0.06
            let longitude = city.longitude + (random.unit() - 0.5) * 0.06
            let updated = now.addingTimeInterval(-random.unit() * sixtyDays)
            let createdAt = updated.addingTimeInterval(-random.unit() * sixtyDays)
            return StudentLocation(
                objectId: SecretGenerator.objectID(),
                uniqueKey: String(1_000_000_000 + random.next() % 9_000_000_000),
                firstName: first,
                lastName: last,
                mapString: city.mapString,
                mediaURL: link(first: first, last: last, style: random.next() % 4),
                latitude: (latitude * 1e6).rounded() / 1e6,
                longitude: (longitude * 1e6).rounded() / 1e6,
                createdAt: createdAt,
                updatedAt: updated
            )
        }
    }

    private static func link(first: String, last: String, style: UInt64) -> String {
        let handle = (first + last).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            .lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        switch style {
        case 0: return "https://github.com/\(handle)"
        case 1: return "https://www.linkedin.com/in/\(handle)"
        case 2: return "https://\(handle).dev"
        default: return "https://medium.com/@\(handle)"
        }
    }
}

/// A small, seedable generator (SplitMix64), so demo data is the same on every machine.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in [0, 1).
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
