import Foundation

/// A fresh directory under the system temp dir (or another), removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// Absolute path of the directory.
    public let path: String

    /// Creates the directory in `parent` (the system temp dir by default); `prefix` helps tell
    /// tests apart when one leaks.
    public init(prefix: String = "onthemap-test", in parent: String = NSTemporaryDirectory()) throws {
        // Joined without a doubled slash ("/tmp/" is the usual parent): programs print paths normalised.
        var template = Array(URL(fileURLWithPath: parent).appendingPathComponent("\(prefix).XXXXXX").path.utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(cString: created)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> String {
        path + "/" + name
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
