import Hummingbird

/// The operator's side of the server: metrics, the access log, the health and metrics endpoints.
///
/// The default has no metrics backend and no access log (what router-level tests want); `serve` fills
/// both in from its options.
public struct ServerOperations: Sendable {
    /// Prometheus metrics, when bootstrapped.
    public var metrics: ServerMetrics?
    /// The JSON-lines access log, when asked for.
    public var accessLog: AccessLog?
    /// When set, `/metrics` answers only requests with `Authorization: Bearer` and this token.
    public var metricsToken: MetricsToken?

    /// Creates the operations settings.
    public init(metrics: ServerMetrics? = nil, accessLog: AccessLog? = nil, metricsToken: MetricsToken? = nil) {
        self.metrics = metrics
        self.accessLog = accessLog
        self.metricsToken = metricsToken
    }
}

extension Router<ServerRequestContext> {
    /// The operations middleware, outermost so it sees every response in its final form (after
    /// `APIErrorMiddleware` turned errors into bodies), and `/healthz` and `/metrics`.
    func addOperations(_ operations: ServerOperations, storage: any ServerStorage, integrity: IntegrityMonitor?) {
        if operations.metrics != nil || operations.accessLog != nil {
            add(middleware: RequestRecordingMiddleware(metrics: operations.metrics?.requests, accessLog: operations.accessLog))
        }
        if let metrics = operations.metrics {
            var logins: [String: Set<HTTPRequest.Method>] = ["/v1/session": [.post]]
            for root in ParseRootsMiddleware.roots { logins["/\(root)/login"] = [.get, .post] }
            add(middleware: OutcomeMetricsMiddleware(loginPaths: logins, metrics: metrics))
        }
        OperationsController(storage: storage, integrity: integrity, metrics: operations.metrics, token: operations.metricsToken)
            .addRoutes(to: self)
    }
}
