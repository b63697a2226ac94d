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
}
