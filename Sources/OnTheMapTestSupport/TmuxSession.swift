import Foundation

/// A private tmux server running one command in a pane of a fixed size, for testing a full-screen
/// program as a person sees it: keys in with send-keys, the screen out with capture-pane. Used by the
/// CLI's `map -i` tests and the editors' tests (Neovim's terminal, the Emacs recipe).
public final class TmuxSession {
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    public let directory: TemporaryDirectory
    private let socket: String

    /// Starts `command` (run by `sh -c`) in a detached session `width`×`height`.
    public init(command: String, width: Int = 100, height: Int = 30, environment: [String: String]) throws {
        directory = try TemporaryDirectory(prefix: "onthemap-tmux")
        socket = directory.file("tmux.sock")
        let exports = environment.map { "\($0.key)=\(Self.quote($0.value))" }.sorted().joined(separator: " ")
        // The pane stays on screen after its command ends, so a test can read what it left.
        let configuration = directory.file("tmux.conf")
        try "set -g remain-on-exit on\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        try tmux(["-f", configuration, "new-session", "-d", "-x", String(width), "-y", String(height), "env \(exports) sh -c \(Self.quote(command))"])
        serverPID = Int32(try display("#{pid}")) ?? 0
    }

    /// The tmux server's process, ended at tear-down whatever else happened.
    private var serverPID: Int32 = 0

    /// Runs the tmux client with `spawnAndWait`, its output in a file: the server it may start keeps
    /// that output open for its whole life, and Foundation's `Process` did not reap the client while
    /// a server it had forked lived on. The server and the panes inherit the client's signal state,
    /// so it starts with the defaults.
    @discardableResult
    public func tmux(_ arguments: [String]) throws -> String {
        guard let result = try? spawnAndWait("/usr/bin/tmux", ["-S", socket] + arguments, defaultSignals: true) else {
            throw ServerProcessError(message: "cannot run tmux")
        }
        guard result.status == 0 else { throw ServerProcessError(message: "tmux \(arguments) failed (\(result.status))") }
        return result.stdout
    }

    /// Types keys (tmux key names: "Enter", "C-c", "Tab", or text).
    public func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "0"] + keys)
    }

    /// The screen as text, one string per line; with `history`, the lines scrolled off above it too.
    public func screen(history: Bool = false) throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", "0"] + (history ? ["-S", "-200"] : [])).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    public func display(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies `condition`; the last screen either way.
    public func waitForScreen(timeout: TimeInterval = 20, _ condition: ([String]) -> Bool) throws -> (Bool, [String]) {
        let deadline = Date().addingTimeInterval(timeout)
        var lines = try screen()
        while !condition(lines) {
            guard Date() < deadline else { return (false, lines) }
            usleep(50_000)
            lines = try screen()
        }
        return (true, lines)
    }

    /// The process running in the pane under its shell (the program being tested).
    public func childProcess() throws -> Int32? {
        let shell = try display("#{pane_pid}")
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// `command`, then a line with its exit status, for `waitForExit`. (tmux 3.3a leaves
    /// `#{pane_dead_status}` empty when the pane's terminal closed first, as it does here.)
    public static func reportingExit(_ command: String) -> String {
        "\(command); echo \"\(exitMarker)$?\""
    }

    private static let exitMarker = "EXITED="

    /// The exit status a command started with `reportingExit` printed; nil while it still runs or
    /// after `timeout`.
    public func waitForExit(timeout: TimeInterval = 20) throws -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let line = try screen(history: true).last(where: { $0.hasPrefix(Self.exitMarker) }) {
                return Int32(line.dropFirst(Self.exitMarker.count).trimmingCharacters(in: .whitespaces))
            }
            guard Date() < deadline else { return nil }
            usleep(50_000)
        }
    }

    public func tearDown() {
        _ = try? tmux(["kill-server"])
        let deadline = Date().addingTimeInterval(5)
        while serverPID > 0, kill(serverPID, 0) == 0, Date() < deadline { usleep(20_000) }
        if serverPID > 0, kill(serverPID, 0) == 0 { kill(serverPID, SIGKILL) }
        directory.remove()
    }

    public static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

extension TmuxSession {
    /// The cells of a pane captured with its escapes (`capture-pane -e`), each with the SGR
    /// parameters in force: tmux writes them one escape each ("\e[1m\e[31m"), resetting with 0 or
    /// with the defaults 39 and 49.
    public static func attributedCells(_ capture: String) -> [(row: Int, col: Int, character: Character, attributes: Set<String>)] {
        var cells: [(row: Int, col: Int, character: Character, attributes: Set<String>)] = []
        var attributes = Set<String>()
        for (row, line) in capture.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var col = 0
            var scalars = line.unicodeScalars.makeIterator()
            while let scalar = scalars.next() {
                guard scalar == "\u{1B}" else {
                    cells.append((row, col, Character(scalar), attributes))
                    col += 1
                    continue
                }
                var parameters = ""
                _ = scalars.next()  // "["
                while let next = scalars.next(), next != "m" { parameters.unicodeScalars.append(next) }
                for code in parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init) {
                    switch code {
                    case "", "0": attributes = []
                    case "39": attributes = attributes.filter { !(30...38).contains(Int($0) ?? 0) && !(90...97).contains(Int($0) ?? 0) }
                    case "49": attributes = attributes.filter { !(40...48).contains(Int($0) ?? 0) }
                    case "22": attributes.subtract(["1", "2"])
                    case "27": attributes.remove("7")
                    default:
                        if let value = Int(code), (30...37).contains(value) || (90...97).contains(value) {
                            attributes = attributes.filter { !(30...38).contains(Int($0) ?? 0) && !(90...97).contains(Int($0) ?? 0) }
                        }
                        attributes.insert(code)
                    }
                }
            }
        }
        return cells
    }
}
