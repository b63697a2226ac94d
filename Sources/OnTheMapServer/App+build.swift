import AsyncHTTPClient
import Hummingbird
import Logging
import NIOCore
import OnTheMapModels

/// Builds the HTTP application: routes under `/v1`, as on `onthemap-api.udacity.com`.
///
/// `onListening` receives the base URL once the socket is bound (with the real port when `port` is 0).
public func buildApplication(
    configuration: ServerConfiguration,
    storage: any ServerStorage,
    logger: Logger,
    operations: ServerOperations = .init(),
    onListening: @escaping @Sendable (String) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = buildRouter(configuration: configuration, storage: storage, operations: operations)
    let idleTimeout = TimeAmount.nanoseconds(Int64(configuration.idleTimeout.seconds * 1e9))
    return Application(
        router: router,
        server: .http1(configuration: .init(idleTimeout: idleTimeout)),
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
    configuration: ServerConfiguration, storage: any ServerStorage, operations: ServerOperations = .init()
) -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    router.addOperations(operations, probe: StorageProbe(storage: storage))
    router.add(middleware: APIErrorMiddleware())
    router.add(middleware: LogRequestsMiddleware(.info))
    let v1 = router.group("v1")
    SessionController(
        storage: storage,
        hasher: PasswordHasher(cost: configuration.bcryptCost),
        limiter: LoginRateLimiter(store: storage, limits: configuration.loginLimits),
        facebook: configuration.facebookVerifyURL.map { FacebookTokenVerifier(url: $0, httpClient: .shared) },
        sessionLifetime: configuration.sessionLifetime,
        trustedProxies: configuration.trustedProxies,
        maxBodyBytes: configuration.maxBodyBytes
    ).addRoutes(to: v1.group("session"))
    UsersController(accounts: storage).addRoutes(to: v1.group("users"))
    StudentLocationController(
        locations: storage,
        sessions: storage,
        openWrites: configuration.openWrites,
        maxBodyBytes: configuration.maxBodyBytes,
        changes: storage.locationChangeWatch()
    ).addRoutes(to: v1.group("StudentLocation"))
    // The Parse-era dialect, under both roots the old apps used.
    for root in ["1", "parse"] {
        ParseController(
            storage: storage, keys: configuration.parseKeys, openWrites: configuration.openWrites,
            maxBodyBytes: configuration.maxBodyBytes
        ).addRoutes(to: router.group("\(root)/classes/StudentLocation"))
    }
    return router
}
