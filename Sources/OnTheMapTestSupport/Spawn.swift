import Foundation

/// Runs a program to completion with `posix_spawn` and `waitpid`, its stdout and stderr each in a
/// temporary file: for tools that leave a daemon behind (`pg_ctl start`) or run through `runuser`,
/// where Foundation's `Process` was seen to miss the exit and wait for ever while other tests spawned
/// processes at the same time. It starts in `workingDirectory` when given (a tool run as another
/// user needs a folder that user may enter: the test's own may be root's 0700 clone), and its
/// diagnostics stay in `stderr`, apart from the output a test parses. With `defaultSignals`, it
/// starts with no signal blocked and the common ones at their default action, for a child that
/// starts a server which outlives it (tmux).
public func spawnAndWait(
    _ executable: String, _ arguments: [String], workingDirectory: String? = nil, defaultSignals: Bool = false
) throws -> CommandResult {
    let base = NSTemporaryDirectory() + "/onthemap-spawn.\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
    let outputPath = base + ".out"
    let errorPath = base + ".err"
    defer {
        unlink(outputPath)
        unlink(errorPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Nothing else of the test process's: its sockets and pipes would count against the child's
    // descriptor limit (PostgreSQL refuses to start with too few) and keep pipes open.
    _ = spawnActionsCloseFrom(&actions, 3)
    if let workingDirectory { _ = spawnActionsChangeDirectory(&actions, workingDirectory) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    if defaultSignals { resetSignals(&attributes) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return CommandResult(status: exitStatus, stdout: output, stderr: errors)
}

/// Sets `attributes` so that the child inherits no blocked signal, and none ignored of those a server
/// and its children rely on (the test process ignores SIGPIPE, and its threads may block others).
private func resetSignals(_ attributes: inout posix_spawnattr_t) {
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var common = sigset_t()
    sigemptyset(&common)
    for signal in [SIGHUP, SIGINT, SIGPIPE, SIGTERM, SIGCHLD, SIGWINCH] { sigaddset(&common, signal) }
    posix_spawnattr_setsigdefault(&attributes, &common)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which the Glibc module does not
/// export: its declaration needs `_GNU_SOURCE`.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnActionsChangeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module does
/// not export: its declaration needs `_GNU_SOURCE`.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
