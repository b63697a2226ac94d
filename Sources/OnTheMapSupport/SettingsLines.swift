import OnTheMapModels

/// The `key = value` settings files of `onthemapd` and `onthemap-server`, read one way.
///
/// Blank lines and lines whose first non-blank character is `#` are skipped. A `#` after a blank
/// ends a value (`refresh-interval = 60   # seconds`); one inside a value stays part of it (a
/// password in `database = postgres://onthemap:p#ss@db/map`). Keys and values are trimmed, and
/// neither may be empty (`socket =` is a mistake, not a setting); what a key means, and whether it
/// is known, is the reader's to say.
public enum SettingsLines {
    /// One `key = value` line.
    public struct Setting: Sendable, Equatable {
        /// 1-based, for messages.
        public var line: Int
        public var key: String
        public var value: String

        public init(line: Int, key: String, value: String) {
            self.line = line
            self.key = key
            self.value = value
        }
    }

    /// A line that is neither blank, a comment, nor `key = value` with a key and a value.
    public struct Malformed: Error, Equatable {
        /// 1-based.
        public var line: Int

        public init(line: Int) {
            self.line = line
        }
    }

    /// The settings in file order (a key given twice appears twice; the reader decides which wins).
    public static func parse(_ text: String) throws(Malformed) -> [Setting] {
        var settings: [Setting] = []
        // By `isNewline`: in a file written on Windows, "\r\n" is one Character, which "\n" does not match.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = withoutComment(rawLine).trimmingWhitespace()
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "="), case let key = line[..<equals].trimmingWhitespace(),
                case let value = line[line.index(after: equals)...].trimmingWhitespace(), !key.isEmpty, !value.isEmpty
            else { throw Malformed(line: index + 1) }
            settings.append(Setting(line: index + 1, key: key, value: value))
        }
        return settings
    }

    /// The line up to a `#` that starts it or follows a blank.
    private static func withoutComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#", previous.isWhitespace { return line[..<index] }
            previous = line[index]
        }
        return line
    }
}
