import Logging

/// How `serve` writes its log lines to standard error: swift-log's text lines, or one JSON object per
/// line for collectors that parse fields (journald, Loki, Elasticsearch).
public enum LogFormat: String, CaseIterable, Sendable {
    case text
    case json

    /// Makes every logger of the process write this format at `level` (once, before any logger),
    /// each line at most `BoundedLogHandler.maxLineBytes`.
    public func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in BoundedLogHandler(handler(label: label, level: level)) }
    }

    /// A handler of this format, unbounded.
    func handler(label: String, level: Logger.Level) -> any LogHandler {
        switch self {
        case .text:
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        case .json:
            return JSONLogHandler(label: label, logLevel: level)
        }
    }
}
