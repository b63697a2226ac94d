import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

#if canImport(Glibc)
import Glibc
#endif

/// `onthemap map -i`: the map full screen. Keys and the mouse pan, zoom and pick pins; the map is drawn
/// again on resize and whenever the daemon reports new students; the terminal is restored however it
/// ends. A logout elsewhere and a daemon that goes away do not end it: it says so in its status line
/// and waits (for a login, for the daemon to answer again), as `watch` does.
final class InteractiveMap {
    private let global: GlobalOptions
    private let charset: MapParams.Charset
    private let labels: Bool
    private var screen = MapScreen()
    /// Where the last drawing looked, as the daemon answered it.
    private var camera: MapCamera?
    /// Where the next drawing looks instead of the camera: the start, a typed place, the world.
    private var pending: MapWhere?
    /// The daemon: calls, and the news that redraws the map.
    private let link: MapDaemonLink
    /// The place being typed after `/`, if any.
    private var typing: String?
    /// Where a drag began: the cell, and the camera then.
    private var drag: (row: Int, col: Int, camera: MapCamera)?

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
                    if signal == SIGWINCH { try draw() } else { throw ExitCodeFailure(code: 128 + signal) }
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
    private func call<Params: RPCRequestType>(_ params: Params) throws -> Result<Params.Response, RPCError>?
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
        screen.notice = Self.waiting(error)
        screen.paint()
    }

    /// "onthemapd went away; waiting for it (q quits). Start it again as it was started: `…`."
    private static func waiting(_ error: ClientError?) -> String {
        "onthemapd went away; waiting for it (q quits)" + (error?.advice.map { ". " + $0 } ?? "")
    }

    /// One attempt to reach the daemon again: back, the map is drawn anew; still away, the status line
    /// says how to start it.
    private func reconnect() throws {
        if let error = link.reconnect() {
            screen.notice = Self.waiting(error)
            return screen.paintStatus()
        }
        screen.notice = nil
        screen.message = "onthemapd is back"
        try draw()
    }

    /// Acts on keys; false to quit.
    private func handle(_ keys: [MapKey]) throws -> Bool {
        var redraw = false
        for key in keys {
            if var help = screen.help {
                // The mouse moving over the list leaves it; a scrolling key scrolls it while it does
                // not fit; any other key closes it.
                if case .mouse = key { continue }
                if MapHelp.visibleKeys(rows: screen.rows) < MapKey.keyList.count, let step = MapHelp.scrollStep(for: key) {
                    _ = help.scroll(by: step, rows: screen.rows)
                    screen.help = help
                    screen.paint()
                    continue
                }
                screen.help = nil
                redraw = true
                continue
            }
            if let text = typing {
                switch key {
                case .enter:
                    typing = nil
                    if !text.trimmingWhitespace().isEmpty { try jump(to: text) }
                case .escape, .interrupt: typing = nil
                case .backspace: typing = String(text.dropLast())
                case .character(let character): typing = text + String(character)
                default: break
                }
                screen.typing = typing
                if typing == nil { redraw = true } else { screen.paintStatus() }
                continue
            }
            if case .mouse(let mouse) = key {
                redraw = mouseAction(mouse) || redraw
                continue
            }
            screen.message = nil
            switch key.command {
            case .quit: return false
            case .interrupt: throw ExitCodeFailure(code: 130)
            case .up, .down, .left, .right, .zoomIn, .zoomOut, .world:
                move(key.command)
                redraw = true
            case .next, .previous:
                if let pin = screen.select(step: key.command == .next ? 1 : -1) {
                    centre(on: pin)
                    redraw = true
                } else {
                    screen.paint()
                }
            case .enter:
                openSelected()
            case .escape:
                _ = screen.select(step: 0)
                screen.paint()
            case .search:
                typing = ""
                screen.typing = ""
                screen.paintStatus()
            case .help:
                screen.help = MapHelp()
                screen.paint()
            case .refresh:
                screen.message = "refreshing…"
                screen.paintStatus()
                switch try call(RefreshParams()) {
                case .success(let result)?:
                    let count = result.count
                    screen.message = "refreshed: \(count) \(count == 1 ? "student" : "students")"
                case .failure(let error)?:
                    screen.message = CLIFailure.message(for: error)
                case nil:
                    break
                }
                redraw = true
            default:
                break
            }
        }
        if redraw { try draw() }
        return true
    }

    /// The wheel zooms around the pointer, a drag pans, a click picks the pin under it; true to redraw.
    private func mouseAction(_ mouse: MapMouse) -> Bool {
        let (width, height) = screen.mapSize
        switch mouse {
        case .wheelUp(let row, let col), .wheelDown(let row, let col):
            guard var moved = camera else { return false }
            let zoomIn: Bool
            if case .wheelUp = mouse { zoomIn = true } else { zoomIn = false }
            moved.zoom(by: zoomIn ? 2 : 0.5, around: (row, col), width: width, height: height)
            camera = moved
            screen.message = nil
            screen.pickOrderIsStale = true
            return true
        case .press(let row, let col):
            guard let camera else { return false }
            drag = (row, col, camera)
            return false
        case .drag(let row, let col):
            guard let start = drag else { return false }
            var moved = start.camera
            moved.pan(cellsX: Double(start.col - col), cellsY: Double(start.row - row), width: width)
            camera = moved
            screen.pickOrderIsStale = true
            return true
        case .release(let row, let col):
            defer { drag = nil }
            // A click (no drag) on a pin picks it.
            guard let start = drag, start.row == row, start.col == col, screen.select(row: row, col: col) else { return false }
            screen.message = nil
            screen.paint()
            return false
        }
    }

    /// Goes to a typed place, saying which one it found ("Springfield" has several), or to LAT,LON.
    private func jump(to text: String) throws {
        do {
            if let point = try CoordinateText.parse(text) {
                pending = .near("\(point.latitude),\(point.longitude)", radiusKm: nil)
                screen.message = "→ \(NumberText.of(point.latitude)), \(NumberText.of(point.longitude))"
                return
            }
        } catch {
            screen.message = error.description
            return
        }
        do {
            try TypedLength.check(text, atMost: TypedLength.place, "The place")
        } catch {
            screen.message = "\(error)"
            return
        }
        switch try call(GeocodeParams(query: text, limit: 1)) {
        case .success(let result)?:
            guard let place = result.results.first else {
                screen.message = "No place matches \"\(text)\"."
                return
            }
            pending = .near("\(place.latitude),\(place.longitude)", radiusKm: place.extentKm)
            screen.message = "→ " + DisplayText.clean(place.label)
        case .failure(let error)?:
            screen.message = CLIFailure.message(for: error)
        case nil:
            break
        }
    }

    private func move(_ key: MapKey) {
        guard var moved = camera else { return }
        let (width, height) = screen.mapSize
        screen.pickOrderIsStale = true
        switch key {
        case .up: moved.pan(dx: 0, dy: -1, width: width, height: height)
        case .down: moved.pan(dx: 0, dy: 1, width: width, height: height)
        case .left: moved.pan(dx: -1, dy: 0, width: width, height: height)
        case .right: moved.pan(dx: 1, dy: 0, width: width, height: height)
        case .zoomIn, .zoomOut:
            if key == .zoomIn, moved.isAtMaxZoom {
                screen.message = "as close as the map draws: its outlines have no finer detail"
                return
            }
            // Around the picked pin, which stays in view; else around the centre.
            if let pin = screen.selectedPin {
                moved.latitude = pin.student.latitude
                moved.longitude = pin.student.longitude
            }
            moved.zoom(by: key == .zoomIn ? 2 : 0.5)
        default:
            pending = .fit(.world)
            return
        }
        camera = moved
    }

    /// Puts the picked pin in the middle of the map, at the same zoom.
    private func centre(on pin: StudentPin) {
        guard var moved = camera else { return }
        moved.latitude = pin.student.latitude
        moved.longitude = pin.student.longitude
        camera = moved
    }

    private func openSelected() {
        guard let pin = screen.selectedPin?.student else {
            screen.message = "pick a pin first (n, p or Tab)"
            return screen.paintStatus()
        }
        guard !pin.mediaURL.isEmpty else {
            screen.message = "\(DisplayText.clean(pin.fullName)) has no link to open"
            return screen.paintStatus()
        }
        screen.message = "opening \(DisplayText.clean(pin.mediaURL))…"
        screen.paintStatus()
        screen.message = QuietOpener.open(pin.mediaURL)
        // Whatever the opener did to the terminal, the whole screen is drawn again.
        screen.paint()
    }

    /// Asks the daemon for the map at the current size and camera, and paints it.
    private func draw() throws {
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
            screen.show(result)
        case .failure(let error)? where error.code == RPCError.notLoggedInCode || error.code == RPCError.sessionExpiredCode:
            // Logged out elsewhere (`onthemap logout`, an editor, the session's end): the last map
            // stays, with no pick, until a login brings the daemon's news and a new map. Started
            // logged out, there is nothing to show: exit 3, as every command.
            guard screen.hasMap else { throw error }
            screen.dropPick()
            screen.notice = "logged out: `onthemap login` (in another terminal) brings the map back (q quits)"
            screen.paint()
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

/// Ends the command with an exit status after the terminal is restored (130 for Ctrl-C, 128+signal).
struct ExitCodeFailure: Error {
    var code: Int32
}
