@testable import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// Waits said in words, and the one rule for links a client may open.
@Suite("Waits in words, links to open", .ownThreads)
struct WordsAndLinksTests {
    @Test(arguments: [
        (0, "1 second"), (1, "1 second"), (45, "45 seconds"), (60, "1 minute"), (61, "2 minutes"), (899, "15 minutes"),
        (900, "15 minutes"), (3600, "1 hour"), (3601, "2 hours"), (86_400, "1 day"), (200_000, "3 days"),
    ])
    func waits(seconds: Int, words: String) {
        #expect(WaitInWords.describe(seconds: seconds) == words)
    }

    @Test(arguments: [
        ("https://example.com/me", "https://example.com/me"), ("  HTTP://Example.com ", "HTTP://Example.com"),
        ("http://a.b/?q=1&r=2#x", "http://a.b/?q=1&r=2#x"),
    ])
    func webLinksAreOpened(text: String, link: String) {
        #expect(WebLink.opening(text) == link)
    }

    @Test(arguments: [
        "file:///etc/passwd", "javascript:alert(document.domain)", " JaVaScRiPt:alert(1)", "data:text/html,<b>x</b>",
        "ssh://host", "--manual", "-h", "example.com", "https://", "https:// spaced.example", "https://a.example/x\ny", "",
    ])
    func anythingElseIsNot(text: String) {
        #expect(WebLink.opening(text) == nil, "\(text)")
    }

    /// A link holding a control character or a bidi override is not a web link (issue 39): it could
    /// be opened cut short at a NUL, or read as another link than it is.
    @Test(arguments: [
        "https://a.example/\u{0}evil", "https://a.example/\u{1B}[2J", "https://a.example/\u{7F}", "https://a.example/\u{9B}x",
        "https://a.example/\u{202E}gnp.exe", "https://a.example/\u{2066}x", "http://localhost:99999", "http://localhost:0",
        "https://a.example/x\u{2003}y",
    ])
    func controlsBidiAndImpossiblePortsAreNotWebLinks(text: String) {
        #expect(WebLink.opening(text) == nil, "\(text.unicodeScalars.map(\.value))")
    }

    /// Each refusal says what is wrong in the link's own terms: a pasted line break is not "a space",
    /// a user name before the site (which a cut table shows as the site) is named, and a link begun
    /// with https:// is not told to begin with it.
    @Test(arguments: [
        ("https://cr.example/\r\nX", "it holds a line break (U+000D)"),
        ("https://a.example/x\u{2028}", "it holds a line break (U+2028)"),
        ("https://a.example/x y", "it has a space in it"),
        ("https://a.example/\u{1B}[2J", "it holds a hidden character (U+001B)"),
        ("https://www.linkedin.com@evil.example/in/x", "it has a user name before its site (the part before @), which makes it read as another site"),
        ("https://mailto:me@example.com", "it has a user name before its site (the part before @), which makes it read as another site"),
        ("mailto:me@example.com", "it is not an http:// or https:// address"),
        ("https://ex.com:abc/", "it is not an address a browser can open (check the site's name, and its port if it has one)"),
        ("http://localhost:99999", "its port, 99999, is not one a connection can use (1 to 65535)"),
    ])
    func aRefusedLinkSaysWhy(text: String, why: String) {
        #expect(WebLink.problem(text) == why, "\(text.debugDescription)")
    }

    @Test(arguments: ["https://x.org/a@b", "https://x.org/?from=a@b", "https://x.org/#a@b", "https://[::1]:8080/"])
    func anAtSignAfterTheSiteIsFine(text: String) {
        #expect(WebLink.problem(text) == nil, "\(text)")
    }

    @Test func displayTextNeutralisesWhatATerminalWouldObey() {
        #expect(DisplayText.clean("Ada\u{1B}[1A\u{1B}[2K Lovelace") == "Ada\u{FFFD}[1A\u{FFFD}[2K Lovelace")
        #expect(DisplayText.clean("a\tb\r\nc") == "a b  c")
        #expect(DisplayText.clean("Lima\u{2028}Peru\u{2029}") == "Lima Peru ", "line separators break a bar's line too")
        #expect(DisplayText.clean("bell\u{7} nul\u{0} del\u{7F} csi\u{9B}") == "bell\u{FFFD} nul\u{FFFD} del\u{FFFD} csi\u{FFFD}")
        #expect(DisplayText.clean("https://x.example/\u{202E}gnp.exe") == "https://x.example/gnp.exe")
        #expect(DisplayText.clean("\u{2066}iso\u{2069} São Paulo 東京 🗺") == "iso São Paulo 東京 🗺")
        #expect(!DisplayText.holdsControls("São Paulo 東京 🗺"))
    }

    /// "Zalgo" text keeps four marks a character, as much as a written language stacks; the rest,
    /// drawn over the rows around it, goes.
    @Test func displayTextKeepsFourCombiningMarksACharacter() {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 40) + "oe" + String(repeating: "\u{20DD}", count: 6)
        #expect(DisplayText.clean(zalgo) == "Z\u{0301}\u{0301}\u{0301}\u{0301}oe\u{20DD}\u{20DD}\u{20DD}\u{20DD}")
        for kept in ["Nguyê\u{0303}n", "Tiê\u{0301}ng Viê\u{0323}t", "שָׁלֹ֑ום", "b\u{0301}\u{0302}\u{0303}\u{0304}b", "São Paulo"] {
            #expect(DisplayText.clean(kept) == kept, "\(kept.unicodeScalars.map(\.value))")
        }
    }

    /// JSON for a terminal: what JSON leaves raw and a terminal obeys is escaped, and reads back as it was.
    @Test func jsonEscapesWhatATerminalWouldObeyAndKeepsTheData() throws {
        let text = "del\u{7F} csi\u{9B}31m \u{202E}gnp.exe \u{2066}x\u{2069} Lima\u{2028}Peru São Paulo 東京 🗺 \u{1B}[2J"
        let escaped = DisplayText.escapedInJSON(try WireCoding.encode([text]))
        let shown = String(decoding: escaped, as: UTF8.self)
        #expect(!shown.unicodeScalars.contains { DisplayText.isControl($0) || DisplayText.isBidiControl($0) || DisplayText.isLineSeparator($0) }, "\(shown)")
        #expect(shown.contains(#"\u007f"#) && shown.contains(#"\u009b"#) && shown.contains(#"\u202e"#) && shown.contains("São Paulo 東京 🗺"), "\(shown)")
        #expect(try WireCoding.decode([String].self, from: escaped) == [text])
    }

    /// The written-out sets are Unicode's own, for every scalar.
    @Test func controlsBidiControlsAndWhitespaceAreUnicodes() {
        var mismatches: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            if DisplayText.isControl(scalar) != (properties.generalCategory == .control) { mismatches.append("control \(value)") }
            if DisplayText.isBidiControl(scalar) != properties.isBidiControl { mismatches.append("bidi \(value)") }
            if WebLink.containsWhitespace(String(scalar)) != properties.isWhitespace { mismatches.append("space \(value)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func whitespaceInALinkIsUnicodesWhitespace() {
        for text in ["https://é.example/\u{00A0}x", "https://é.example/\u{2003}", "https://é.example/\u{3000}x", "https://a.example/\u{0085}"] {
            #expect(WebLink.containsWhitespace(text), "\(text.unicodeScalars.map(\.value))")
        }
        #expect(!WebLink.containsWhitespace("https://b\u{00E9}b\u{0301}.example/x"))
    }
}
