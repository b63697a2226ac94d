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

    /// What records each request: the metrics and the access log above.
    var recorder: RequestRecorder {
        RequestRecorder(metrics: metrics?.requests, accessLog: accessLog)
    }
}

extension Router<ServerRequestContext> {
    /// The operations middleware, outermost so it sees every response in its final form (after
    /// `APIErrorMiddleware` turned errors into bodies), and `/healthz` and `/metrics`.
    func addOperations(_ operations: ServerOperations, probe: some DatabaseProbe) {
        let recorder = operations.recorder
        if recorder.isRecording {
            add(middleware: RequestRecordingMiddleware(recorder: recorder))
        }
        if operations.metrics != nil {
            add(middleware: OutcomeMetricsMiddleware(loginPath: "/v1/session"))
        }
        OperationsController(probe: probe, metrics: operations.metrics).addRoutes(to: self)
    }
}
