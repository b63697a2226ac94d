import ArgumentParser
import OnTheMapServer

/// `serve`'s operator options: the access log and the metrics token (metrics and `/healthz` are
/// always on).
struct OperationsOptions: ParsableArguments {
    @Option(
        name: .customLong("access-log"),
        help: ArgumentHelp(
            "Append one JSON line per request to this file (created 0600); - writes to stdout.",
            discussion: "Lines hold the time, client address, method, path (no query), route, status, duration, size and user agent; never a header value, a cookie or a body.",
            valueName: "path"))
    var accessLogPath: String?

    @Option(
        name: .customLong("metrics-token-file"),
        help: ArgumentHelp(
            "Answer /metrics only to requests that send the token in this file as Authorization: Bearer TOKEN.",
            discussion: "The file (not readable by other users) holds the token on its first line; Prometheus sends it with authorization: {credentials_file: …}. Without it /metrics is open, like /healthz.",
            valueName: "path"))
    var metricsTokenFile: String?

    /// Makes the Prometheus registry, opens the access log and reads the metrics token.
    func makeOperations() throws -> ServerOperations {
        let accessLog: AccessLog?
        let token: MetricsToken?
        do {
            accessLog = try accessLogPath.map { try AccessLog(path: $0) }
            token = try metricsTokenFile.map { try MetricsToken(contentsOf: $0) }
        } catch {
            // The file system's answer, not a mistake in the command line: no usage text.
            throw CommandError("\(error)")
        }
        return ServerOperations(metrics: ServerMetrics(), accessLog: accessLog, metricsToken: token)
    }
}
