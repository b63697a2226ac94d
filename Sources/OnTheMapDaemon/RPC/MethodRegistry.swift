import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC

/// What a method answers: its typed result, encoded as it is sent, or a result encoded already (a
/// list written around the pins the cache encoded once: `PinListAnswer`).
enum RPCResult: Sendable {
    case value(any Encodable & Sendable)
    case encoded([UInt8])

    /// A declared result, as the daemon sends it.
    static func result(_ result: some RPCResultType) -> RPCResult { .value(result) }
}

/// Every method the daemon serves, in the order of `OnTheMapMethods.all`: its declaration (in
/// `OnTheMapRPC`) reads and checks the params, and the handler here carries the request out,
/// mostly by asking the daemon (`Daemon+…`).
enum MethodRegistry {
    typealias Handler = @Sendable (WireJSON?, Daemon, ConnectionSubscription) async throws -> RPCResult

    static let methods: [(name: String, handle: Handler)] = [
        on(StatusParams.self) { _, daemon, _ in .result(await daemon.status()) },
        on(LoginParams.self) { request, daemon, _ in .result(try await daemon.login(request)) },
        // Ends the upstream session if reachable; always forgets it here.
        on(LogoutParams.self) { _, daemon, _ in .result(await daemon.logout()) },
        on(StudentsParams.self) { request, daemon, connection in try await daemon.students(request, for: connection.isOpen) },
        // Concurrent refreshes share one upstream request.
        on(RefreshParams.self) { _, daemon, _ in
            try await daemon.refresh()
            return .result(daemon.state.current.refreshResult)
        },
        on(GeocodeParams.self) { request, daemon, _ in .result(try await daemon.geocode(request)) },
        on(MyPinParams.self) { _, daemon, _ in .result(try await daemon.myPin()) },
        on(PostPinParams.self) { request, daemon, _ in .result(try await daemon.postPin(request)) },
        on(SubscribeParams.self) { request, _, connection in
            let events = Set(request.events ?? RPCEvent.allCases)
            connection.subscribe(events)
            return .result(SubscribeResult(events: events))
        },
        on(UnsubscribeParams.self) { _, _, connection in
            connection.unsubscribe()
            return .result(SubscribeResult(events: []))
        },
        on(MapParams.self) { request, daemon, connection in try await daemon.map(request, for: connection.isOpen) },
        on(ExportMapParams.self) { request, daemon, connection in .result(try await daemon.exportMap(request, for: connection.isOpen)) },
        // Read from the server's web page when asked: a person asks once, when they need an account.
        on(SignUpParams.self) { _, daemon, _ in .result(SignUpResult(url: try await daemon.api.signUpURL())) },
        on(DiscoverParams.self) { _, _, _ in .result(discoverDocument) },
    ]

    static let byName = Dictionary(uniqueKeysWithValues: methods.map { ($0.name, $0.handle) })

    /// `rpc.discover`'s answer: an OpenRPC document of every method.
    static let discoverDocument = OpenRPCDocument.document(version: Daemon.version, methods: OnTheMapMethods.all)

    /// The handler of `Request`'s method: reads its params (-32602 naming the field when they are
    /// wrong), then answers.
    private static func on<Request: RPCRequestType>(
        _: Request.Type, _ answer: @escaping @Sendable (Request, Daemon, ConnectionSubscription) async throws -> RPCResult
    ) -> (name: String, handle: Handler) {
        (Request.method, { params, daemon, connection in try await answer(try Request(params: params), daemon, connection) })
    }
}
