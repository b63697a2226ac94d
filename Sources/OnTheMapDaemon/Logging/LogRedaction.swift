import FoundationEssentials
import Synchronization

/// Keeps secrets out of the log at every level, whoever logs them: the daemon's own code never
/// does, but the HTTP library prints whole response heads at `trace` (`Set-Cookie: XSRF-TOKEN=…`).
///
/// Two nets: the values of secrets the daemon holds (session id, XSRF token, a password while a
/// login is in flight), replaced wherever they appear; and the headers and JSON members that carry
/// secrets by name, whatever their value. Mutex-protected.
public enum LogRedaction {
    static let mask = "<redacted>"
    private static let secrets = Mutex<Set<String>>([])

    /// Redacts `value` from every later log line until `forget`. Short values are ignored: they
    /// would mask ordinary words.
    static func register(_ value: String?) {
        guard let value, value.count >= 6 else { return }
        secrets.withLock { _ = $0.insert(value) }
    }

    /// Stops redacting `value` (a password once its login is over).
    static func forget(_ value: String?) {
        guard let value else { return }
        secrets.withLock { _ = $0.remove(value) }
    }

    /// `text` with every secret replaced by `<redacted>`.
    public static func redact(_ text: String) -> String {
        var result = text
        for secret in secrets.withLock({ $0 }) where result.contains(secret) {
            result = result.replacing(secret, with: mask)
        }
        guard result.lowercased().contains(namedSecretHint) else { return result }
        for pattern in namedSecretPatterns {
            result = result.replacing(pattern) { match in match.1 + mask }
        }
        return result
    }

    /// A cheap test before the regular expressions run (on the lower-cased line).
    nonisolated(unsafe) private static let namedSecretHint = try! Regex(#"cookie|xsrf|session|password|token|authorization"#)

    /// Header values up to the next `;`, `,` or line end, and JSON string members, by name.
    nonisolated(unsafe) private static let namedSecretPatterns: [Regex<(Substring, Substring)>] = [
        try! Regex(#"(?i)((?:set-cookie|cookie|x-xsrf-token|x-onthemap-session|x-parse-session-token|authorization)\s*[:=]\s*)[^;,\r\n]*"#),
        try! Regex(#"(?i)("(?:password|access_token|sessionToken|sessionID|xsrfToken)"\s*:\s*)"(?:[^"\\]|\\.)*""#),
    ]
}
