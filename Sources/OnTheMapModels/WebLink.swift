import FoundationEssentials

/// The one rule for a pin's `mediaURL`, shared by the server and the daemon.
public enum WebLink {
    /// Whether the text is an absolute http(s) URL with a host, no user name before it, no
    /// whitespace, and no control character, bidi override or other invisible format character
    /// (`DisplayText`): a link that shows one thing and opens another is never a web link here, nor
    /// one an opener would cut short at a NUL.
    public static func isValid(_ text: String) -> Bool {
        problem(text) == nil
    }

    /// Why `text` is not a web link (`isValid`), in words to show after it: "its port, 99999, is
    /// not one a connection can use"; nil when it is one.
    public static func problem(_ text: String) -> String? {
        // A line break first: it is whitespace too, but "a space" would not be what was pasted.
        if let lineBreak = text.unicodeScalars.first(where: { "\n\r\u{85}\u{2028}\u{2029}".unicodeScalars.contains($0) }) {
            return "it holds a line break (\(DisplayText.codePoint(lineBreak)))"
        }
        if containsWhitespace(text) { return "it has a space in it" }
        if let hidden = text.unicodeScalars.first(where: { DisplayText.isControl($0) || DisplayText.isFormat($0) }) {
            return "it holds a hidden character (\(DisplayText.codePoint(hidden)))"
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            let lowered = text.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return "it is not an http:// or https:// address" }
            return "it is not an address a browser can open (check the site's name, and its port if it has one)"
        }
        // "https://www.linkedin.com@evil.example/" opens evil.example: what comes before the @ is a
        // user name, and a table that cuts the link shows only that.
        if components.user != nil || components.password != nil {
            return "it has a user name before its site (the part before @), which makes it read as another site"
        }
        guard let host = components.host, !host.isEmpty else { return "it names no host" }
        // A port no TCP connection can use ("http://localhost:99999").
        if let port = components.port, !(1...65535).contains(port) {
            return "its port, \(port), is not one a connection can use (1 to 65535)"
        }
        return nil
    }

    /// Whether `text` holds whitespace (Unicode's White_Space, line ends included). ASCII, nearly
    /// every scalar of a link, is answered without the property look-up.
    static func containsWhitespace(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.isASCII ? $0 == " " || (0x09...0x0D).contains($0.value) : $0.properties.isWhitespace }
    }

    /// The link to open for `text`, trimmed, when it is an http(s) URL (`isValid`); nil otherwise.
    /// The one rule for links from any source (the daemon's list, the client's `open`, the editors).
    public static func opening(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        return isValid(trimmed) ? trimmed : nil
    }
}
