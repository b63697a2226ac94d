import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Opens a URL with `$ONTHEMAP_OPENER`, else `xdg-open`, and waits for it: an opener that is missing
/// or fails is a failure (exit status 1), not a usage error.
enum URLOpener {
    /// `announce`: say "opened URL" on stderr (not while a full-screen map owns the terminal).
    static func open(_ url: String, announce: Bool = true) throws {
        let opener = Terminal.environment("ONTHEMAP_OPENER") ?? "xdg-open"
        var pid: pid_t = 0
        let arguments = [opener, url]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let spawned = posix_spawnp(&pid, opener, nil, nil, &cArguments, environ)
        guard spawned == 0 else {
            let hint = opener == "xdg-open" ? " (install xdg-utils, or set ONTHEMAP_OPENER to a program that opens links)" : ""
            throw CommandFailure(message: "cannot run \(opener) to open \(url): \(String(cString: strerror(spawned)))\(hint)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let how = exited ? "exit status \(code)" : "signal \(status & 0x7f)"
            throw CommandFailure(message: "\(opener) failed to open \(url) (\(how))")
        }
        if announce { Output.error("opened \(url)") }
    }
}
