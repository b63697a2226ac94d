import Foundation
import Testing

/// Where the package's executables are, for tests that run them as real processes.
public enum BuiltProducts {
    /// The directory holding the test binary, which SwiftPM shares with the executables;
    /// `ONTHEMAP_BIN_DIR` overrides it (e.g. to test a release build).
    public static var directory: String {
        if let override = ProcessInfo.processInfo.environment["ONTHEMAP_BIN_DIR"], !override.isEmpty {
            return override
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent
    }

    /// Absolute path of an executable product, e.g. `onthemap-server`.
    public static func path(_ name: String) -> String {
        directory + "/" + name
    }
}
