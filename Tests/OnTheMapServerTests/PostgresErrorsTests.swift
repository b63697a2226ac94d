import Testing
import _ConnectionPoolModule

@testable import OnTheMapServer

/// How the server reads PostgresNIO's failures that need no running database.
@Suite("PostgreSQL failures, as the server reads them")
struct PostgresErrorsTests {
    /// The pool's verdict after a minute of failed connections is known by its type's name (the
    /// server does not import the module PostgresNIO keeps it in): an upgrade that renames it fails here.
    @Test func thePoolsOwnVerdictIsRecognised() {
        #expect(PostgresErrors.isPoolVerdict(ConnectionPoolError.connectionCreationCircuitBreakerTripped))
        #expect(PostgresErrors.isPoolVerdict(ConnectionPoolError.poolShutdown))
    }

    @Test func otherErrorsAreNotThePools() {
        #expect(!PostgresErrors.isPoolVerdict(StorageError.unavailable("x")))
        #expect(!PostgresErrors.isPoolVerdict(CancellationError()))
    }
}
