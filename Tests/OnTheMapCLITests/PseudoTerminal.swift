import Foundation
import OnTheMapTestSupport

/// Runs a program with its standard output and error on a pseudo-terminal, as a person's terminal
/// would get them, and answers every byte it wrote there. The terminal is in raw mode (no `\n` →
/// `\r\n`), so each byte read is the program's own: a control byte in the output is one it wrote.
enum PseudoTerminal {
    struct Run {
        var output: [UInt8]
        var status: Int32
        var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// `stdin`: text on a pipe (the password of `login --password-stdin`), else /dev/null.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], stdin: String? = nil,
        columns: UInt16 = 100, rows: UInt16 = 30, timeout: TimeInterval = 60
    ) throws -> Run {
        let master = openTerminal(O_RDWR | O_NOCTTY | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, unlockTerminal(master) == 0, terminalName(master, &name, name.count) == 0 else {
            throw ServerProcessError(message: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        defer { close(master) }
        let terminal = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { throw ServerProcessError(message: "cannot open \(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))") }
        var settings = termios()
        tcgetattr(terminal, &settings)
        cfmakeraw(&settings)
        tcsetattr(terminal, TCSANOW, &settings)
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)

        var input: [Int32] = [-1, -1]
        if stdin != nil { guard pipeClosedOnExec(&input, O_CLOEXEC) == 0 else { throw ServerProcessError(message: "pipe") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdin != nil {
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, terminal, 1)
        posix_spawn_file_actions_adddup2(&actions, terminal, 2)
        // Nothing else of the test process's: another test's pipe held open here would not end.
        _ = closingFrom(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(terminal)
        if stdin != nil { close(input[0]) }
        guard spawned == 0 else { throw ServerProcessError(message: "cannot run \(executable): \(spawned)") }
        if let stdin {
            _ = Array(stdin.utf8).withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
            close(input[1])
        }

        // Read until every copy of the terminal's other end is closed (EIO), or the deadline.
        var output: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) >= 0 || errno == EINTR else { break }
            if ready.revents == 0 { continue }
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer[..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return Run(output: output, status: status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
    }

    /// The control characters in `bytes` a terminal would obey, each with its offset: C0 but line
    /// feed (and tab, where `tabs`), DEL, C1 in UTF-8, and the bidi embeddings, overrides and
    /// isolates. Empty when the bytes are safe to show.
    static func controls(in bytes: [UInt8], tabs: Bool = false) -> [(offset: Int, what: String)] {
        var found: [(Int, String)] = []
        let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
        for (offset, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x0A: continue
            case 0x09 where tabs: continue
            case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                found.append((offset, String(format: "U+%04X", scalar.value)))
            default: continue
            }
        }
        return found
    }
}

// glibc's functions the Glibc module does not export: their declarations need `_XOPEN_SOURCE` or
// `_GNU_SOURCE` (grantpt is not needed on Linux, where devpts gives the terminal its owner).
@_silgen_name("posix_openpt")
private func openTerminal(_ flags: Int32) -> Int32
@_silgen_name("unlockpt")
private func unlockTerminal(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r")
private func terminalName(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32
@_silgen_name("pipe2")
private func pipeClosedOnExec(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func closingFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
