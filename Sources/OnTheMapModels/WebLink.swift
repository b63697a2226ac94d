#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one rule for a pin's `mediaURL`, shared by the server and the daemon.
public enum WebLink {
    /// Whether the text is an absolute http(s) URL with a host and no whitespace.
    public static func isValid(_ text: String) -> Bool {
        guard !containsWhitespace(text), let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// Whether `text` holds whitespace (Unicode's White_Space, line ends included). ASCII text is
    /// read byte by byte: there the property is exactly tab to carriage return and space, and the
    /// `Character.isWhitespace` lookups took a tenth of caching 10,000 locations.
    static func containsWhitespace(_ text: String) -> Bool {
        var ascii = true
        for byte in text.utf8 {
            if byte >= 0x80 {
                ascii = false
                break
            }
            if byte == 0x20 || (0x09...0x0D).contains(byte) { return true }
        }
        return ascii ? false : text.contains(where: \.isWhitespace)
    }

    /// The link to open for `text`, trimmed, when it is an http(s) URL (`isValid`); nil otherwise.
    /// The one rule for links from any source (the daemon's list, the client's `open`, the editors).
    public static func opening(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        return isValid(trimmed) ? trimmed : nil
    }
}
