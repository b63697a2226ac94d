import Foundation

/// `systemd-analyze` on system units, leaving nothing behind.
///
/// Run as root, `verify` and `security --offline` start a manager in test mode that writes
/// `/run/systemd/systemd-units-load`; a private mount namespace with its own `/run/systemd` keeps
/// that file out of the host's. Without root there is no such namespace, and `--user` mode writes
/// under `XDG_RUNTIME_DIR` instead.
public enum SystemdAnalyze {
    /// Runs `systemd-analyze ARGUMENTS…` in system mode (as root) or in user mode with a private
    /// runtime directory created in `scratch`.
    public static func run(_ arguments: [String], scratch: TemporaryDirectory) throws -> CommandResult {
        if getuid() == 0 {
            let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            return try runCommand(
                "/usr/bin/unshare", ["--mount", "/bin/sh", "-c", "mount -t tmpfs tmpfs /run/systemd && exec systemd-analyze \(quoted)"])
        }
        let runtime = scratch.file("xdg-runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try runCommand("/usr/bin/systemd-analyze", ["--user"] + arguments, environment: ["XDG_RUNTIME_DIR": runtime])
    }

    /// The overall exposure score `security` printed ("… exposure level for X.service: 1.1 OK").
    public static func exposure(in output: String) -> Double? {
        output.firstMatch(of: /Overall exposure level for \S+: (\d+\.\d+)/).flatMap { Double($0.1) }
    }
}
