import Foundation

/// Compares text with a file under `Golden/` next to the calling test file.
///
/// `ONTHEMAP_UPDATE_GOLDEN=1 swift test` rewrites the files from the current output.
public enum GoldenFile {
    /// Nil when the text matches (or was just written); else a message showing the first difference.
    public static func mismatch(_ actual: String, name: String, testFile: String) -> String? {
        let url = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
        if ProcessInfo.processInfo.environment["ONTHEMAP_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return nil
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            return "missing golden file \(url.path); run with ONTHEMAP_UPDATE_GOLDEN=1 to create it"
        }
        guard expected != actual else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        return """
            \(name) differs at line \(line + 1):
            expected: \(line < expectedLines.count ? String(expectedLines[line]) : "<end>")
            actual:   \(line < actualLines.count ? String(actualLines[line]) : "<end>")
            """
    }
}
