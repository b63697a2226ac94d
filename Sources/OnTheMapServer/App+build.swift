import AsyncHTTPClient
import Hummingbird
import Logging

/// Builds the HTTP application: routes under `/v1`, as on `onthemap-api.udacity.com`.
///
/// `onListening` receives the base URL once the socket is bound (with the real port when `port` is 0).
public func buildApplication(
    configuration: ServerConfiguration,
    database: AppDatabase,
    logger: Logger,
    operations: ServerOperations = .init(),
    onListening: @escaping @Sendable (String) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = buildRouter(configuration: configuration, database: database, operations: operations)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "onthemap-server"),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            await onListening("http://\(host):\(port)/v1")
        },
        logger: logger
    )
}

/// The router alone, for tests that drive it without a socket.
public func buildRouter(
    configuration: ServerConfiguration, database: AppDatabase, operations: ServerOperations = .init()
) -> Router<ServerRequestContext> {
    let accounts = AccountRepository(database: database)
    let sessions = SessionRepository(database: database)
    let router = Router(context: ServerRequestContext.self)
    router.addOperations(operations, probe: database)
    router.add(middleware: APIErrorMiddleware())
    router.add(middleware: LogRequestsMiddleware(.info))
    let v1 = router.group("v1")
    SessionController(
        accounts: accounts,
        sessions: sessions,
        hasher: PasswordHasher(cost: configuration.bcryptCost),
        limiter: LoginRateLimiter(limits: configuration.loginLimits),
        facebook: configuration.facebookVerifyURL.map { FacebookTokenVerifier(url: $0, httpClient: .shared) },
        sessionLifetime: configuration.sessionLifetime,
        maxBodyBytes: configuration.maxBodyBytes
    ).addRoutes(to: v1.group("session"))
    UsersController(accounts: accounts).addRoutes(to: v1.group("users"))
    StudentLocationController(
        locations: StudentLocationRepository(database: database),
        sessions: sessions,
        openWrites: configuration.openWrites,
        maxBodyBytes: configuration.maxBodyBytes
    ).addRoutes(to: v1.group("StudentLocation"))
    return router
}
