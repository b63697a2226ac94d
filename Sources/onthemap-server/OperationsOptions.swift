import ArgumentParser
import OnTheMapServer

/// `serve`'s operator options: the access log (metrics and `/healthz` are always on).
struct OperationsOptions: ParsableArguments {
    @Option(
        name: .customLong("access-log"),
        help: ArgumentHelp(
            "Append one JSON line per request to this file (created 0600); - writes to stdout.",
            discussion: "Lines hold the time, client address, method, path (no query), route, status, duration, size and user agent; never a header value, a cookie or a body.",
            valueName: "path"))
    var accessLogPath: String?

    /// Bootstraps the Prometheus metrics backend and opens the access log.
    func makeOperations() throws -> ServerOperations {
        let accessLog: AccessLog?
        do {
            accessLog = try accessLogPath.map { try AccessLog(path: $0) }
        } catch {
            // The file system's answer, not a mistake in the command line: no usage text.
            throw CommandError("\(error)")
        }
        return ServerOperations(metrics: .bootstrap(), accessLog: accessLog)
    }
}
