import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// The tags a refresh sends (`ListTags`), against the real server: a list of several pages is kept
/// only while its first and last pages are unchanged, and tags taken for another cache size are not
/// sent (their last page is of another query: at 3,000 the last page of 2,500 students is at 2,000,
/// which a cache of 1,500 asked for as `limit=-500`, refused, so every refresh failed).
@Suite("List tags", .serialized)
struct ListTagsTests {
    @Test func tagsTakenForAnotherCacheSizeAreNotSent() async throws {
        try await Self.withServer(students: 2500) { api, _ in try await Self.checkSizes(api) }
    }

    /// A list of exactly two pages (2,000 students, a cache of 3,000) ends with an empty page: its tag
    /// is of the page one student back, so a student added below every other (an older pin put in
    /// the database, which changes neither full page) and a student deleted are both noticed.
    @Test func aListOfWholePagesNoticesAStudentAddedAtTheEndOrDeleted() async throws {
        try await Self.withServer(students: 2000) { api, server in
            try await Self.checkWholePages(api, database: server.databasePath)
        }
    }

    /// Runs `body` with a client of the real server holding `students` demo students, and shuts the
    /// client down however it ends: a client left running is a crash at its deinit.
    private static func withServer(
        students: Int, _ body: (OnTheMapAPIClient, ServerFixture) async throws -> Void
    ) async throws {
        let server = try ServerFixture()
        defer { server.tearDown() }
        try server.seedDemo(count: students)
        let api = OnTheMapAPIClient(configuration: APIConfiguration(baseURL: server.baseURL))
        do {
            try await body(api, server)
        } catch {
            try await api.shutdown()
            throw error
        }
        try await api.shutdown()
    }

    private static func checkWholePages(_ api: OnTheMapAPIClient, database: String) async throws {
        let whole = try #require(try await api.newest(3000))
        #expect(whole.list.results.count == 2000)
        let tags = try #require(whole.tags)
        #expect(tags.last?.skip == 1999)
        #expect(try await api.newest(3000, unlessStill: tags) == nil)
        // Older than every other pin: the first and the second page stay as they were.
        try sql(database, """
            INSERT INTO studentLocation (objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude,
                longitude, createdAt, updatedAt)
            VALUES ('oldest', 'u-oldest', 'Ada', 'Oldest', 'Lima, Peru', 'https://example.com', -12.05, -77.04,
                '2000-01-01 00:00:00.000', '2000-01-01 00:00:00.000')
            """)
        let added = try #require(
            try await api.newest(3000, unlessStill: tags), "the added student went unnoticed")
        #expect(added.list.results.count == 2001 && added.list.results.last?.objectId == "oldest")
        let addedTags = try #require(added.tags)
        #expect(addedTags.last?.skip == 2000)
        #expect(try await api.newest(3000, unlessStill: addedTags) == nil)
        try sql(database, "DELETE FROM studentLocation WHERE objectId = 'oldest'")
        let deleted = try #require(
            try await api.newest(3000, unlessStill: addedTags), "the deletion went unnoticed")
        #expect(deleted.list.results.count == 2000)
    }

    /// Runs `statement` on the server's SQLite file, as another process (an administrator) would.
    private static func sql(_ database: String, _ statement: String) throws {
        let script = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()"
        let result = try runCommand("/usr/bin/env", ["python3", "-c", script, database, statement])
        try #require(result.status == 0, "python3 could not change the database: \(result.stderr)")
    }

    private static func checkSizes(_ api: OnTheMapAPIClient) async throws {
        let whole = try #require(try await api.newest(3000))
        #expect(whole.list.results.count == 2500)
        let tags = try #require(whole.tags)
        #expect(tags.count == 3000 && tags.last?.skip == 2000)
        // Unchanged at the same size: nothing fetched.
        #expect(try await api.newest(3000, unlessStill: tags) == nil)
        // Smaller, then larger than the size the tags were taken for: fetched whole either time.
        let smaller = try await api.newest(1500, unlessStill: tags)
        #expect(smaller?.list.results.count == 1500 && smaller?.tags?.count == 1500)
        let larger = try await api.newest(4000, unlessStill: tags)
        #expect(larger?.list.results.count == 2500)
    }
}
