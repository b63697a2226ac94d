#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one rule for a pin's `mediaURL`, shared by the server and the daemon.
public enum WebLink {
    /// Whether the text is an absolute http(s) URL with a host and no whitespace.
    public static func isValid(_ text: String) -> Bool {
        guard !text.contains(where: \.isWhitespace), let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// The link to open for `text`, trimmed, when it is an http(s) URL (`isValid`); nil otherwise.
    /// The one rule for links from any source (the daemon's list, the client's `open`, the editors).
    public static func opening(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        return isValid(trimmed) ? trimmed : nil
    }
}
