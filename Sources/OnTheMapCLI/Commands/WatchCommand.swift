import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

import FoundationEssentials
import Glibc

/// `onthemap watch`: one flushed line per change, for status bars that keep a command running.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print a line whenever the status changes (for waybar, i3blocks, polybar).",
        discussion: """
            Subscribes to the daemon and prints the status again after each change; a line that would \
            only differ in the daemon's uptime is not printed. When the daemon goes away, prints the \
            offline state and reconnects with backoff; one that is quiet for 30 s and then does not \
            answer within 5 s is shown offline until it answers. Use with waybar `exec` (no interval), \
            i3blocks `interval=persist`, polybar `tail = true`. Without --format: a sentence on a \
            terminal, the status JSON otherwise (offline: {"offline":true,"reason":…}).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "json, waybar, i3blocks or polybar (default: a sentence on a terminal, else json).")
    var format: StatusBarFormat?

    @Flag(help: "The same as --format json, on a terminal too.")
    var json = false

    func validate() throws {
        if json, let format, format != .json {
            throw ValidationError("--json is --format json: give one of --json and --format \(format.rawValue).")
        }
    }

    func run() throws {
        let format = json ? .json : self.format ?? (Terminal.stdoutIsTTY ? nil : .json)
        var backoff: Double = 0.25
        var last: String?
        func emit(_ answer: Result<StatusResult, any Error>) throws {
            let summary = StatusSummary(answer, now: Date())
            let status = try? answer.get()
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
                line = try format.render(summary, status: status)
                // The uptime changes with every answer: two statuses that differ only there (the
                // notification and the answer after a refresh) are one change.
                var steady = status
                steady?.uptime = 0
                key = format == .json ? try format.render(summary, status: steady) : line
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
                try emit(.failure(ClientError(kind: .closed, message: "onthemapd closed the connection")))
            } catch let error as ClientError {
                // Not running, or another user's (refused): the bar says which, and this asks again
                // with its back-off (a daemon may be started there, or the socket given back).
                try emit(.failure(error))
            }
            Output.wait(forInputOn: nil, milliseconds: Int32(backoff * 1000))
            backoff = min(backoff * 2, 5)
        }
    }

    /// Milliseconds until the list's age in words ("refreshed 2 min ago") next reads differently
    /// (-1: it shows none): a quiet daemon's status is shown again then, as of then.
    static func untilAged(_ status: StatusResult?) -> Int32 {
        guard let refreshed = status?.students.refreshedAt else { return -1 }
        let now = Date()
        let wait = RelativeTime.nextChange(of: refreshed, now: now).timeIntervalSince(now)
        return Int32(min(max(wait, 1), 3600) * 1000)
    }

    /// After this long without a word from the daemon, `watch` asks for its status: a daemon that
    /// is stopped (SIGSTOP) or stuck sends no news, and the bar stayed green while `status` said
    /// offline.
    static let quietBeforeAsking = Duration.seconds(30)
    /// How long the daemon has to answer that, before the bar says it is not answering (as
    /// `onthemap status` gives up after 5 s).
    static let answerWithin = Duration.seconds(5)

    /// Subscribes, prints the status, and again after each notification, until the connection ends.
    private func follow(_ connection: RPCConnection, emit: (Result<StatusResult, any Error>) throws -> Void) throws {
        _ = try connection.result(SubscribeParams())
        try connection.send(StatusParams().request(id: .string("status")))
        var latest: StatusResult?
        var heard = ContinuousClock.now
        var asked: ContinuousClock.Instant?
        var silent = false
        while true {
            let check = asked.map { $0 + Self.answerWithin } ?? heard + Self.quietBeforeAsking
            let untilCheck = Int32(max(0, (check - .now) / .milliseconds(1)).rounded(.up))
            let aged = Self.untilAged(latest)
            // Nothing from the daemon for a while: the line again, as of now, if its words for a
            // time changed ("refreshed 2 min ago"); `emit` prints nothing when they did not. Quiet
            // for long, it is asked how it is; no answer in time, the bar says so, and nothing more
            // is done until it speaks.
            if !connection.hasBufferedLine,
                !Output.wait(forInputOn: connection.fileDescriptor, milliseconds: silent ? -1 : aged < 0 ? untilCheck : min(aged, untilCheck))
            {
                if let sent = asked, ContinuousClock.now >= sent + Self.answerWithin {
                    silent = true
                    let seconds = Self.answerWithin.components.seconds
                    try emit(.failure(ClientError(kind: .timeout, message: "onthemapd did not answer within \(seconds) s: it is hung or very busy")))
                } else if asked == nil, ContinuousClock.now >= heard + Self.quietBeforeAsking {
                    try connection.send(StatusParams().request(id: .string("status")))
                    asked = .now
                } else if let latest {
                    try emit(.success(latest))
                }
                continue
            }
            guard let message = try connection.read(RPCReply<StatusResult>.self) else { return }
            heard = .now
            asked = nil
            silent = false
            if message.method == RPCEvent.status.method, let status = message.params {
                latest = status
                try emit(.success(status))
            } else if message.isNotification {
                try connection.send(StatusParams().request(id: .string("status")))
            } else if message.id == .string("status"), let status = message.result {
                latest = status
                try emit(.success(status))
            }
        }
    }
}
