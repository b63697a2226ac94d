import Logging

/// A log handler that hands each event to `record`, for tests that look at what was logged.
struct LogCapture: LogHandler {
    let record: @Sendable (LogEvent) -> Void
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { record(event) }
}
