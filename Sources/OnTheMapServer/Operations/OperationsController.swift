import Hummingbird
import Logging

/// `GET /healthz` and `GET /metrics`, outside `/v1`: they are for the operator, not the API's clients.
struct OperationsController {
    let storage: any ServerStorage
    /// The scheduled integrity check's verdicts, when one runs.
    let integrity: IntegrityMonitor?
    /// Nil when metrics were not bootstrapped (router-level tests): `/metrics` is then not routed.
    let metrics: ServerMetrics?
    /// When set, `/metrics` wants it as a bearer token.
    let token: MetricsToken?

    func addRoutes(to router: Router<ServerRequestContext>) {
        router.get("healthz", use: health)
        if metrics != nil {
            router.get("metrics", use: exposition)
        }
    }

    /// 200 `{"status":"ok"}` when the database answers and its last integrity check passed, 503
    /// `{"status":"unavailable",…}` when not.
    @Sendable func health(_ request: Request, context: ServerRequestContext) async -> Response {
        do {
            try await storage.ping()
            // Logged by the monitor when found, not at each check.
            guard integrity?.problems.isEmpty ?? true else {
                return Self.json(.serviceUnavailable, #"{"status":"unavailable","database":"corrupt"}"#)
            }
            return Self.json(.ok, #"{"status":"ok","database":"ok"}"#)
        } catch {
            context.logger.log(
                level: StorageError.logLevel(for: error), "health check: the database does not answer",
                metadata: ["error": "\(error)"])
            return Self.json(.serviceUnavailable, #"{"status":"unavailable","database":"unreachable"}"#)
        }
    }

    @Sendable func exposition(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let metrics else { throw HTTPError(.notFound) }
        if let token, !token.admits(request.headers) {
            return Response(
                status: .unauthorized,
                headers: [
                    .contentType: "text/plain; charset=utf-8", .wwwAuthenticate: #"Bearer realm="metrics""#,
                    .cacheControl: "no-store",
                ],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: "/metrics needs the token this server was given (--metrics-token-file), sent as Authorization: Bearer TOKEN.\n")))
        }
        let text = await metrics.exposition(storage: storage, integrity: integrity)
        return Response(
            status: .ok,
            // A scrape is a reading of now: no cache between Prometheus and the server keeps one.
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }
}
