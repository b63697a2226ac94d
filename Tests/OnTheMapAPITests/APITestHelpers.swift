import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// A real server on a temp database, one account on it, and a client pointed at it.
struct APITestBed {
    static let email = "grace@example.com"
    static let password = "correct horse battery staple"

    let fixture: ServerFixture
    let client: OnTheMapAPIClient
    let accountKey: String

    init(serverArguments: [String] = []) throws {
        fixture = try ServerFixture(arguments: serverArguments)
        accountKey = try fixture.addUser(email: Self.email, password: Self.password)
        client = OnTheMapAPIClient(configuration: APIConfiguration(baseURL: fixture.baseURL))
    }

    func login() async throws -> APISession {
        try await client.login(.udacity(username: Self.email, password: Self.password))
    }

    func draft(_ mapString: String = "Mountain View, CA", key: String? = nil) -> StudentLocationDraft {
        StudentLocationDraft(
            uniqueKey: key ?? accountKey, firstName: "Grace", lastName: "Hopper", mapString: mapString,
            mediaURL: "https://example.com/grace", latitude: 37.386052, longitude: -122.083851)
    }

    func close() async throws {
        try await client.shutdown()
        fixture.tearDown()
    }
}

/// Runs `body` and returns the `APIError` it throws; records an issue if it throws something else or nothing.
func apiError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> APIError? {
    do {
        try await body()
        Issue.record("expected an APIError, got success", sourceLocation: sourceLocation)
    } catch let error as APIError {
        return error
    } catch {
        Issue.record("expected an APIError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
