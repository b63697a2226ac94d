import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// The tags a refresh sends (`ListTags`), against the real server: a list of several pages is kept
/// only while its first and last pages are unchanged, and tags taken for another cache size are not
/// sent (their last page is of another query: at 3,000 the last page of 2,500 students is at 2,000,
/// which a cache of 1,500 asked for as `limit=-500`, refused, so every refresh failed).
@Suite("List tags", .serialized)
struct ListTagsTests {
    @Test func tagsTakenForAnotherCacheSizeAreNotSent() async throws {
        let server = try ServerFixture()
        defer { server.tearDown() }
        try server.seedDemo(count: 2500)
        let api = OnTheMapAPIClient(configuration: APIConfiguration(baseURL: server.baseURL))
        // Shut down however the checks end: a client left running is a crash at its deinit.
        do {
            try await Self.checkSizes(api)
        } catch {
            try await api.shutdown()
            throw error
        }
        try await api.shutdown()
    }

    private static func checkSizes(_ api: OnTheMapAPIClient) async throws {
        let whole = try #require(try await Daemon.fetchNewest(3000, from: api))
        #expect(whole.list.results.count == 2500)
        let tags = try #require(whole.tags)
        #expect(tags.count == 3000 && tags.last?.skip == 2000)
        // Unchanged at the same size: nothing fetched.
        #expect(try await Daemon.fetchNewest(3000, from: api, unlessStill: tags) == nil)
        // Smaller, then larger than the size the tags were taken for: fetched whole either time.
        let smaller = try await Daemon.fetchNewest(1500, from: api, unlessStill: tags)
        #expect(smaller?.list.results.count == 1500 && smaller?.tags?.count == 1500)
        let larger = try await Daemon.fetchNewest(4000, from: api, unlessStill: tags)
        #expect(larger?.list.results.count == 2500)
    }
}
