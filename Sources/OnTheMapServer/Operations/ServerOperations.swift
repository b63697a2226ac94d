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

    /// Creates the operations settings.
    public init(metrics: ServerMetrics? = nil, accessLog: AccessLog? = nil) {
        self.metrics = metrics
        self.accessLog = accessLog
    }
}

extension Router<ServerRequestContext> {
    /// The operations middleware, outermost so it sees every response in its final form (after
    /// `APIErrorMiddleware` turned errors into bodies), and `/healthz` and `/metrics`.
    func addOperations(_ operations: ServerOperations, probe: some DatabaseProbe) {
        if let accessLog = operations.accessLog {
            add(middleware: AccessLogMiddleware(log: accessLog))
        }
        if operations.metrics != nil {
            add(middleware: MetricsMiddleware())
            add(middleware: OutcomeMetricsMiddleware(loginPath: "/v1/session"))
        }
        OperationsController(probe: probe, metrics: operations.metrics).addRoutes(to: self)
    }
}
