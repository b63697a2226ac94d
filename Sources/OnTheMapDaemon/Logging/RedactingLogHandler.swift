import Logging
import OnTheMapModels

/// Passes every log event on to `inner` with secrets redacted (see `LogRedaction`) and control and
/// bidi characters escaped (`DisplayText.escapedForLog`: an upstream's error text is quoted in the
/// log): the message and every metadata value, at every level.
public struct RedactingLogHandler: LogHandler {
    private var inner: any LogHandler

    public init(_ inner: any LogHandler) {
        self.inner = inner
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(Self.redact(event.message.description))"
        event.metadata = event.metadata.map(Self.redact)
        inner.log(event: event)
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = Self.redact(newValue) }
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue.map(Self.redact) }
    }

    static func redact(_ text: String) -> String {
        DisplayText.escapedForLog(LogRedaction.redact(text))
    }

    static func redact(_ metadata: Logger.Metadata) -> Logger.Metadata {
        metadata.mapValues(redact)
    }

    static func redact(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(redact(text))
        case .stringConvertible(let convertible): .string(redact(convertible.description))
        case .array(let values): .array(values.map(redact))
        case .dictionary(let values): .dictionary(values.mapValues(redact))
        }
    }
}
