import Foundation

/// Runs a program to completion with `posix_spawn` and `waitpid`, its output (stdout and stderr) in a
/// temporary file: for tools that leave a daemon behind (`pg_ctl start`) or run through `runuser`,
/// where Foundation's `Process` was seen to miss the exit and wait for ever while other tests spawned
/// processes at the same time.
public func spawnAndWait(_ executable: String, _ arguments: [String]) throws -> CommandResult {
    let outputPath = NSTemporaryDirectory() + "/onthemap-spawn.\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // Nothing else of the test process's: its sockets and pipes would count against the child's
    // descriptor limit (PostgreSQL refuses to start with too few) and keep pipes open.
    _ = spawnActionsCloseFrom(&actions, 3)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return CommandResult(status: exitStatus, stdout: output, stderr: "")
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module does
/// not export: its declaration needs `_GNU_SOURCE`.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
