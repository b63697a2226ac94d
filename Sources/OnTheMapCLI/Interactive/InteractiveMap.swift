import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

import Glibc

/// `onthemap map -i`: the map full screen. Keys and the mouse pan, zoom and pick pins; the map is drawn
/// again on resize and whenever the daemon reports new students; the terminal is restored however it
/// ends. A logout elsewhere and a daemon that goes away do not end it: it says so in its status line
/// and waits (for a login, for the daemon to answer again), as `watch` does.
final class InteractiveMap {
    // What the keys act on (`InteractiveMap+Keys`); one thread owns it all: the loop in `run`.
    private let global: GlobalOptions
    private let charset: MapParams.Charset
    private let labels: Bool
    var screen = MapScreen()
    /// Where the last drawing looked, as the daemon answered it.
    var camera: MapCamera?
    /// Where the next drawing looks instead of the camera: the start, a typed place, the world.
    var pending: MapWhere?
    /// The daemon: calls, and the news that redraws the map.
    let link: MapDaemonLink
    /// The place being typed after `/`, if any.
    var typing: String?
    /// Where a drag began: the cell, and the camera then.
    var drag: (row: Int, col: Int, camera: MapCamera)?

    init(global: GlobalOptions, start: MapWhere, charset: MapParams.Charset, labels: Bool = true) throws {
        guard Terminal.stdinIsTTY, Terminal.stdoutIsTTY else {
            throw UsageFailure(message: "the full-screen map needs a terminal; without -i, `onthemap map` prints one")
        }
        self.global = global
        pending = start
        self.charset = charset
        self.labels = labels
        link = try MapDaemonLink(global: global)
        screen.colour = Terminal.environment("NO_COLOR").map(\.isEmpty) ?? true
    }

    func run() throws {
        SignalPipe.install([SIGWINCH, SIGTERM, SIGINT, SIGHUP, SIGQUIT])
        // The map as it was when it ended is the last one shown: `open 1` opens its pin 1, as after
        // `onthemap map` (it opened row 1 of an older table).
        defer { if let pins = screen.result?.pins { LastTable.save(pins) } }
        try RawTerminal.enter()
        defer { RawTerminal.restore() }
        try draw()
        while true {
            var fds = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: link.events?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let buffered = link.events?.hasBufferedLine == true
            // Connected, the news wakes the loop; while the daemon is away, the next attempt to reach it.
            let timeout = link.isConnected ? -1 : Int32(link.backoff * 1000)
            let ready = buffered ? 1 : poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw UsageFailure(message: "cannot wait for input: \(String(cString: strerror(errno)))")
            }
            if ready == 0, !link.isConnected {
                try reconnect()
                continue
            }
            if fds[1].revents != 0 {
                for signal in SignalPipe.drain() {
                    if signal == SIGWINCH { try draw() } else { throw ExitCode(128 + signal) }
                }
            }
            if fds[2].revents != 0 || buffered {
                try readEvents()
            }
            if fds[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 4096)
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                if count == 0 { return }
                if count > 0, try !handle(MapKey.decode(Array(bytes[..<count]))) { return }
            }
        }
    }

    /// Redraws after `studentsChanged` and `sessionChanged` (a logout elsewhere, a login); a daemon
    /// that went away is waited for.
    private func readEvents() throws {
        guard let methods = link.readEvents() else { return try daemonWentAway(nil) }
        if methods.contains(RPCEvent.students.method) || methods.contains(RPCEvent.session.method) { try draw() }
    }

    /// A call to the daemon; nil when it is away (then the map waits for it).
    func call<Params: RPCRequestType>(_ params: Params) throws -> Result<Params.Response, RPCError>?
    where Params.Response: Decodable {
        guard link.isConnected else { return nil }
        do {
            return try link.call(params)
        } catch let error as ClientError {
            try daemonWentAway(error)
            return nil
        }
    }

    /// The daemon closed the connections: the map stays, picks nothing, and waits for it.
    private func daemonWentAway(_ error: ClientError?) throws {
        link.drop()
        screen.dropPick()
        screen.message = nil
        waiting(error)
        screen.paint()
    }

    /// The status line says the daemon is away; how to start it (`StartAdvice`, whose command the
    /// status line had no room for) goes over the bottom of the map, on lines of its own.
    private func waiting(_ error: ClientError?) {
        screen.notice = "onthemapd went away; waiting for it (q quits)"
        if let advice = error?.advice { screen.startAdvice = StartAdvicePanel(advice: advice) }
    }

    /// One attempt to reach the daemon again: back, the map is drawn anew; still away, the map says
    /// how to start it.
    private func reconnect() throws {
        if let error = link.reconnect() {
            waiting(error)
            return screen.paintStatus()
        }
        screen.notice = nil
        screen.startAdvice = nil
        screen.message = "onthemapd is back"
        try draw()
    }

    /// Asks the daemon for the map at the current size and camera, and paints it.
    func draw() throws {
        screen.measure()
        guard screen.fits else { return screen.paintTooSmall() }
        let (width, height) = screen.mapSize
        let place = pending ?? camera?.place ?? .fit(.world)
        pending = nil
        var params = place.params(width: width, height: height, charset: charset)
        if !labels { params.labels = false }
        switch try call(params) {
        case nil:
            // The daemon is away: the map as it was, and the status line says so.
            break
        case .success(let result)?:
            camera = MapCamera(view: result.view)
            screen.notice = nil
            screen.startAdvice = nil
            screen.show(result)
        case .failure(let error)? where error.code == RPCError.notLoggedInCode || error.code == RPCError.sessionExpiredCode:
            // Logged out elsewhere (`onthemap logout`, an editor, the session's end): the map and
            // its pins go until a login brings the daemon's news and a new map, where the camera
            // was. Started logged out, there is nothing to show: exit 3, as every command.
            guard screen.hasMap else { throw error }
            screen.showLoggedOut()
        case .failure(let error)?:
            // A place that is not found keeps the map as it was, or falls back to the world.
            screen.message = CLIFailure.message(for: error)
            if screen.hasMap {
                screen.paintStatus()
            } else if place != .fit(.world) {
                try draw()
            } else {
                throw error
            }
        }
    }
}
