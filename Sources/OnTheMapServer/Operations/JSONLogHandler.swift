import Foundation
import Logging
import OnTheMapModels

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
        var object: [String: WireJSON] = [:]
        for (key, value) in fields { object[key] = Self.json(value) }
        // The fixed fields last, so metadata cannot overwrite them.
        object["time"] = .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date()))
        object["level"] = .string(event.level.rawValue)
        object["label"] = .string(label)
        object["message"] = .string(event.message.description)
        // Escaped as the access log's lines are (`DisplayText.escapedInJSON`): read on terminals.
        FileHandle.standardError.write(Data(DisplayText.escapedInJSON(Array((Self.sorted(object).serialized + "\n").utf8))))
    }

    /// Keys in alphabetical order, so every line has them in one order.
    private static func sorted(_ object: [String: WireJSON]) -> WireJSON {
        .object(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    private static func json(_ value: Logger.Metadata.Value) -> WireJSON {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): sorted(values.mapValues(json))
        }
    }
}
