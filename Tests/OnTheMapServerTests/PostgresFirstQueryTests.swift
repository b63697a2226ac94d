import Logging
import OnTheMapServer
import OnTheMapTestSupport
import Synchronization
import Testing

/// The first query of a new connection pool is not taken before the pool runs. PostgresNIO warns
/// "`PostgresClient.run()` hasn't been called yet" when it is, and that line reached the output of
/// `onthemap-server pin list` (a fresh clone's CI failed on it once; its log had the warning 5 to 7 times a run).
/// Many pools opened at once, on a busy machine, make the race likely; none may log a warning.
@Suite(
    "PostgreSQL pool start", .ownThreads,
    .enabled(
        if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed (no /usr/lib/postgresql/15/bin/initdb)"))
struct PostgresFirstQueryTests {
    @Test func noPoolIsLeasedFromBeforeItRuns() async throws {
        let url = try await PostgresTestServer.newDatabase()
        let warnings = Mutex<[String]>([])
        let logger = Logger(label: "test") { _ in
            LogCapture(record: { event in
                if event.level >= .warning { warnings.withLock { $0.append("\(event.level) \(event.message)") } }
            })
        }
        // Made once first: the concurrent opens below then only read the schema. Opening is the first
        // query (`ping`, through the pool).
        try await PostgresStorage.connect(
            PostgresLocation(url: url), pinsPerAccount: .one, poolSize: 2, logger: logger
        ).close()
        for _ in 0..<5 {
            try await withThrowingTaskGroup { group in
                for _ in 0..<16 {
                    group.addTask {
                        let storage = try await PostgresStorage.connect(
                            PostgresLocation(url: url), pinsPerAccount: .one, poolSize: 2, logger: logger)
                        await storage.close()
                    }
                }
                try await group.waitForAll()
            }
        }
        let logged = warnings.withLock { $0 }
        #expect(logged.isEmpty, "\(logged.count) warnings, the first: \(logged.first ?? "")")
    }
}
