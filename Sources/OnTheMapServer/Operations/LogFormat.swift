import Logging

/// How `serve` writes its log lines to standard error: swift-log's text lines, or one JSON object per
/// line for collectors that parse fields (journald, Loki, Elasticsearch).
public enum LogFormat: String, CaseIterable, Sendable {
    case text
    case json

    /// Makes every logger of the process write this format at `level` (once, before any logger).
    public func bootstrap(level: Logger.Level) {
        switch self {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label, logLevel: level) }
        }
    }
}
