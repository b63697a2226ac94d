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

    /// Absolute path of an executable product, e.g. `onthemap-server`. `ONTHEMAP_CLIENT` overrides
    /// `onthemap` alone: `make test` runs the end-to-end tests again against the client as it is
    /// installed (`scripts/build-client.sh`), next to the debug server and daemon.
    public static func path(_ name: String) -> String {
        if name == "onthemap", let releaseClient {
            return releaseClient
        }
        return directory + "/" + name
    }

    /// The release client `make test` names in `ONTHEMAP_CLIENT` (`scripts/build-client.sh`'s
    /// unstripped build), or nil in a plain `swift test`.
    public static var releaseClient: String? {
        ProcessInfo.processInfo.environment["ONTHEMAP_CLIENT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Why a test of the release client did not run.
    public static let releaseClientMissing: Comment = "needs the release client (make test sets ONTHEMAP_CLIENT)"
}
