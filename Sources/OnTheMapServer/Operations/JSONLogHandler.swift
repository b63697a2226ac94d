import Foundation
import Logging

/// A swift-log handler that writes one JSON object per line to standard error:
/// `{"time":…,"level":…,"label":…,"message":…}` and the line's metadata under their own keys.
///
/// Each line is handed to standard error whole, in one write of a few hundred bytes, so lines from
/// concurrent tasks do not interleave.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String, logLevel: Logger.Level = .info) {
        self.label = label
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let own = event.metadata { fields.merge(own) { $1 } }
        var object: [String: Any] = [:]
        for (key, value) in fields { object[key] = Self.json(value) }
        // The fixed fields last, so metadata cannot overwrite them.
        object["time"] = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line)
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }
}
