import Logging
import OnTheMapModels

/// A log handler in front of another that keeps every line short and on one line: the message and
/// each metadata value are cut to their share of `maxLineBytes` (with "…" where cut), and control
/// and bidi characters are written as `\u{1B}` (`DisplayText.escapedForLog`), so no value from a request (a path, an error that quotes
/// one) can make a line of 45 KB or start a line of its own.
public struct BoundedLogHandler: LogHandler {
    /// The most a line may take, the handler's own timestamp, level and label included.
    public static let maxLineBytes = 2048
    /// What the message may take; the metadata share the rest, less room for the handler's own parts.
    static let maxMessageBytes = 1024
    static let maxMetadataBytes = 768

    private var inner: any LogHandler

    public init(_ inner: any LogHandler) {
        self.inner = inner
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: Self.bounded(event.message.description, to: Self.maxMessageBytes))
        if let error = event.error {
            // Written as metadata, bounded like the rest (a handler would print it whole).
            event.metadata = (event.metadata ?? [:]).merging(["error.message": "\(error)"]) { $1 }
            event.error = nil
        }
        if let metadata = event.metadata, !metadata.isEmpty {
            let share = Self.maxMetadataBytes / metadata.count
            event.metadata = metadata.reduce(into: [:]) { bounded, entry in
                bounded[String(entry.key.prefix(32))] = .string(Self.bounded("\(entry.value)", to: max(share - 40, 16)))
            }
        }
        inner.log(event: event)
    }

    /// `text` on one line, control and bidi characters escaped, at most `limit` UTF-8 bytes.
    static func bounded(_ text: String, to limit: Int) -> String {
        var result = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece = DisplayText.escapedForLog(scalar)
            if bytes + piece.utf8.count > limit - 3 {
                return result + "…"
            }
            result += piece
            bytes += piece.utf8.count
        }
        return result
    }
}
