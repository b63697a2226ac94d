import Foundation
import PackagePlugin

/// Writes the resolved dependency versions (from Package.resolved) into the target as Swift source,
/// so each program can say what it was built with (`--version --verbose`): they link every
/// dependency statically, and a security fix in one means a rebuild.
@main
struct DependencyVersions: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let resolved = context.package.directoryURL.appending(path: "Package.resolved")
        let script = context.package.directoryURL.appending(path: "scripts/dependency-versions.py")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildDependencies+Pins.swift")
        return [
            .buildCommand(
                displayName: "Recording the resolved dependency versions",
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                arguments: ["python3", script.path, resolved.path, output.path],
                inputFiles: [resolved, script],
                outputFiles: [output])
        ]
    }
}
