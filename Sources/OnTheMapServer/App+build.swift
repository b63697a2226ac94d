import AsyncHTTPClient
import Hummingbird
import HummingbirdCore
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
    let listCache = LocationListCache(changes: storage.locationChangeWatch())
    let integrity = IntegrityMonitor(storage: storage, interval: configuration.integrityCheckInterval, logger: logger)
    let geocoder = ServerGeocoder()
    let router = buildRouter(
        configuration: configuration, storage: storage, operations: operations, listCache: listCache,
        integrity: integrity, geocoder: geocoder)
    let budget = RequestBudget(maxConnections: configuration.maxConnections, maxHeldBytes: configuration.maxRequestMemory)
    let maxBodyBytes = configuration.maxBodyBytes
    return Application(
        router: router,
        // Hummingbird's own HTTP/1 channel. The request budget sits where its public configuration
        // puts extra handlers: after the HTTP codec, before the connection-state handler (which
        // passes no `channelInactive` on, and the budget must see every connection close).
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [RequestBudgetHandler(budget: budget, maxBodyBytes: maxBodyBytes)],
                idleTimeout: TimeAmount(configuration.idleTimeout),
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: RequestBudgetHandler.maxHeadBytes,
                    maxHeaderListSize: RequestBudgetHandler.maxHeadBytes))),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "onthemap-server"),
        // The integrity checks; the geocoder drops its index once lookups stop.
        services: [integrity, geocoder],
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
    buildRouter(
        configuration: configuration, storage: storage, operations: operations,
        listCache: LocationListCache(changes: storage.locationChangeWatch()), integrity: nil,
        geocoder: ServerGeocoder())
}

func buildRouter(
    configuration: ServerConfiguration, storage: any ServerStorage, operations: ServerOperations,
    listCache: LocationListCache, integrity: IntegrityMonitor?, geocoder: ServerGeocoder
) -> Router<ServerRequestContext> {
    // HEAD answered for every GET route, as HTTP asks of a server (uptime monitors use it).
    let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.addOperations(operations, storage: storage, integrity: integrity)
    router.add(middleware: NoStoreMiddleware(prefixes: ["/v1"] + ParseRootsMiddleware.roots.map { "/\($0)" }))
    router.add(middleware: APIErrorMiddleware())
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: JSONGzipMiddleware())
    let v1 = router.group("v1")
    // Counted in the database; a refusal it decided is kept in memory, so refused requests write nothing.
    let attempts = KnownPauses(store: storage)
    let limiter = LoginRateLimiter(store: attempts, limits: configuration.loginLimits)
    let passwords = PasswordLogin(
        storage: storage, hasher: PasswordHasher(cost: configuration.bcryptCost), limiter: limiter,
        sessionLifetime: configuration.sessionLifetime)
    SessionController(
        storage: storage,
        passwords: passwords,
        facebook: configuration.facebookVerifyURL.map { FacebookTokenVerifier(url: $0, httpClient: .shared) },
        trustedProxies: configuration.trustedProxies,
        maxBodyBytes: configuration.maxBodyBytes
    ).addRoutes(to: v1.group("session"))
    UsersController(accounts: storage).addRoutes(to: v1.group("users"))
    StudentLocationController(
        locations: storage,
        sessions: storage,
        openWrites: configuration.openWrites,
        maxBodyBytes: configuration.maxBodyBytes,
        cache: listCache
    ).addRoutes(to: v1.group("StudentLocation"))
    GeocodeController(sessions: storage, attempts: attempts, geocoder: geocoder).addRoutes(to: v1.group("geocode"))
    // The web page: a client of the routes above (docs/API.md), served from the binary.
    if let web = configuration.web {
        WebController(assets: WebAssets(settings: web)).addRoutes(to: router)
    }
    // The Parse-era dialect, under both roots the old apps used; its unknown paths answer in its
    // own error shape too (`ParseRootsMiddleware`).
    router.add(middleware: ParseRootsMiddleware(roots: ParseRootsMiddleware.roots))
    for root in ParseRootsMiddleware.roots {
        let parse = router.group(RouterPath(root)).add(middleware: ParseMiddleware(keys: configuration.parseKeys))
        ParseController(
            storage: storage, openWrites: configuration.openWrites, maxBodyBytes: configuration.maxBodyBytes,
            cache: listCache
        ).addRoutes(to: parse.group("classes/StudentLocation"))
        ParseUsersController(
            storage: storage, passwords: passwords, trustedProxies: configuration.trustedProxies,
            maxBodyBytes: configuration.maxBodyBytes
        ).addRoutes(to: parse)
    }
    return router
}
