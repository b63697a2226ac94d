import Foundation
import OnTheMapTestSupport
import Testing

/// A readable record of HTTP exchanges, with the values that change from run to run replaced by
/// placeholders, compared against a file in `Golden/`.
///
/// `ONTHEMAP_UPDATE_GOLDEN=1 swift test --filter StockClientSequence` rewrites the files.
struct GoldenTranscript {
    private(set) var text = ""
    private var replacements: [(String, String)] = []

    /// Replace an exact value (e.g. an account key) by a placeholder from now on.
    mutating func mask(_ value: String, as placeholder: String) {
        replacements.append((value, placeholder))
    }

    mutating func record(
        method: String, path: String, requestBody: String?, status: Int, contentType: String?, setCookie: String?,
        body: String
    ) {
        text += ">>> \(method) \(path)\n"
        if let requestBody { text += requestBody + "\n" }
        text += "<<< \(status)\n"
        if let contentType { text += "content-type: \(contentType)\n" }
        if let setCookie { text += "set-cookie: \(setCookie)\n" }
        text += body + "\n\n"
    }

    /// The transcript with run-specific values replaced.
    var normalized: String {
        var output = text
        for (value, placeholder) in replacements { output = output.replacingOccurrences(of: value, with: placeholder) }
        output = output.replacing(/\d{10}S[0-9a-f]{32}/, with: "<session-id>")
        output = output.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/, with: "<timestamp-us>")
        output = output.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, with: "<timestamp-ms>")
        output = output.replacing(/"objectId":"[A-Za-z0-9]{10}"/, with: #""objectId":"<objectId>""#)
        output = output.replacing(/XSRF-TOKEN=[0-9a-f]{64}/, with: "XSRF-TOKEN=<xsrf>")
        output = output.replacing(/Expires=[A-Za-z]{3}, \d\d [A-Za-z]{3} \d{4} \d\d:\d\d:\d\d GMT/, with: "Expires=<http-date>")
        return output
    }

    /// Compares with `Golden/NAME` (`GoldenFile`), or rewrites it when asked to.
    func verify(against name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = GoldenFile.mismatch(normalized, name: name, testFile: filePath) {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
        }
    }
}
