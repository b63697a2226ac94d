/// The packages a program was built with: every dependency is linked in statically, so a security
/// fix in one of them means a rebuild, and this says whether a binary has it. The list itself is
/// generated at build time (the DependencyVersions plugin, from Package.resolved).
public enum BuildDependencies {
    /// One resolved package.
    public struct Pin: Sendable {
        public var name: String
        public var version: String
        public var revision: String
        public var location: String
    }

    /// `--version --verbose`: the version, then one line per package ("swift-nio 2.101.3").
    public static func verboseVersion(program: String, version: String) -> String {
        let width = pins.map(\.name.count).max() ?? 0
        let lines = pins.map { pin in
            pin.name + String(repeating: " ", count: width - pin.name.count) + "  " + pin.version
        }
        let built = pins.isEmpty ? "built with: (not recorded: Package.resolved was missing at build time)" : "built with:"
        return ([program + " " + version, built] + lines.map { "  " + $0 }).joined(separator: "\n")
    }

    /// Whether `arguments` ask for the verbose version (`--version --verbose`, in either order).
    public static func isVerboseVersionRequest(_ arguments: [String]) -> Bool {
        arguments.contains("--version") && arguments.contains("--verbose")
    }
}
