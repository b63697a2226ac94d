import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

#if canImport(Glibc)
import Glibc
#endif

/// `onthemap watch`: one flushed line per change, for status bars that keep a command running.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print a line whenever the status changes (for waybar, i3blocks, polybar).",
        discussion: """
            Subscribes to the daemon and prints the status again after each change; a line that would \
            only differ in the daemon's uptime is not printed. When the daemon goes away, prints the \
            offline state and reconnects with backoff. Use with waybar `exec` (no interval), \
            i3blocks `interval=persist`, polybar `tail = true`. Without --format: a sentence on a \
            terminal, the status JSON otherwise.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "json, waybar, i3blocks or polybar (default: a sentence on a terminal, else json).")
    var format: StatusBarFormat?

    func run() throws {
        let format = self.format ?? (Terminal.stdoutIsTTY ? nil : .json)
        var backoff: Double = 0.25
        var last: String?
        func emit(_ status: WireJSON?) {
            let summary = StatusSummary(status: status.map(StatusResult.init(wireJSON:)), now: Date())
            let line: String
            let key: String
            switch format {
            case nil:
                line = summary.sentence
                key = line
            case .i3blocks?:
                // i3blocks in persist mode reads one line per update: a JSON block (with `format=json`
                // in its config), so the colour changes with the state.
                line = summary.i3blocksJSON
                key = line
            case let format?:
                line = format.render(summary, status: status)
                // The uptime changes with every answer: two statuses that differ only there (the
                // notification and the answer after a refresh) are one change.
                key = format == .json ? format.render(summary, status: status.map(Self.withoutUptime)) : line
            }
            if key != last {
                Output.line(line)
                last = key
            }
        }
        while true {
            do {
                let connection = try global.connect(timeout: nil)
                backoff = 0.25
                try follow(connection, emit: emit)
            } catch {}
            emit(nil)
            usleep(UInt32(backoff * 1_000_000))
            backoff = min(backoff * 2, 5)
        }
    }

    /// A status object with its `uptime` member left out.
    static func withoutUptime(_ status: WireJSON) -> WireJSON {
        guard case .object(let members) = status else { return status }
        return .object(members.filter { $0.0 != "uptime" })
    }

    /// Subscribes, prints the status, and again after each notification, until the connection ends.
    private func follow(_ connection: RPCConnection, emit: (WireJSON?) -> Void) throws {
        let statusRequest = StatusParams().request(id: .string("status")).serialized
        try connection.send(line: SubscribeParams().request(id: .string("subscribe")).serialized)
        try connection.send(line: statusRequest)
        while let message = try connection.readMessage() {
            if message["method"]?.stringValue == RPCEvent.status.method, let status = message["params"] {
                emit(status)
            } else if message["method"] != nil {
                try connection.send(line: statusRequest)
            } else if message["id"] == .string("status"), let status = message["result"] {
                emit(status)
            }
        }
    }
}
