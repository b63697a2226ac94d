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

    /// The byte-level whitespace check for ASCII text says what `Character.isWhitespace` says, for
    /// every ASCII character inside a link, and text with other characters keeps the Unicode rule.
    @Test func whitespaceInALinkIsFoundTheSameWayAsCharactersFindIt() {
        for byte in UInt8(0)..<0x80 {
            let text = "https://a.example/x" + String(UnicodeScalar(byte)) + "y"
            #expect(WebLink.containsWhitespace(text) == text.contains(where: \.isWhitespace), "byte \(byte)")
        }
        for text in ["https://é.example/\u{00A0}x", "https://é.example/\u{2003}", "https://é.example/\u{3000}x",
                     "https://é.example/x", "https://b\u{00E9}b\u{0301}.example/\u{0085}"] {
            #expect(WebLink.containsWhitespace(text) == text.contains(where: \.isWhitespace), "\(text.unicodeScalars.map(\.value))")
        }
        #expect(WebLink.opening("https://é.example/\u{2003}x") == nil)
    }
}
