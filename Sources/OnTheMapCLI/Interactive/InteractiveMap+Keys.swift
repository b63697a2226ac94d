import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// What keys and the mouse do on the full-screen map.
extension InteractiveMap {
    /// Acts on keys; false to quit.
    func handle(_ keys: [MapKey]) throws -> Bool {
        var redraw = false
        for key in keys {
            if var help = screen.help {
                // The mouse moving over the list leaves it; a scrolling key scrolls it while it does
                // not fit; any other key closes it.
                if case .mouse = key { continue }
                if MapHelp.scrolls(columns: screen.columns, rows: screen.rows), let step = MapHelp.scrollStep(for: key) {
                    help.scroll(by: step, columns: screen.columns, rows: screen.rows)
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
            case .interrupt: throw ExitCode(130)
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
                    screen.message = "refreshed: \(CountText.grouped(count)) \(count == 1 ? "student" : "students")"
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
                screen.message = "→ \(WireJSON.format(point.latitude)), \(WireJSON.format(point.longitude))"
                return
            }
        } catch {
            screen.message = error.description
            return
        }
        do {
            try TypedText.check(text, atMost: TypedText.place, "The place")
        } catch {
            screen.message = "\(error)"
            return
        }
        switch try call(GeocodeParams(query: text, limit: 1)) {
        case .success(let result)?:
            guard let place = result.results.first else {
                screen.message = "No place matches \"\(DisplayText.clean(text))\"."
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
            // A link the daemon dropped says why, as `onthemap open` does.
            screen.message = pin.mediaURLDropped == nil
                ? "\(DisplayText.clean(pin.fullName)) has no link to open"
                : URLOpener.refusal(pin.mediaURL, dropped: pin.mediaURLDropped, student: pin.fullName).message
            return screen.paintStatus()
        }
        screen.message = "opening \(DisplayText.clean(pin.mediaURL))…"
        screen.paintStatus()
        screen.message = QuietOpener.open(pin.mediaURL)
        // Whatever the opener did to the terminal, the whole screen is drawn again.
        screen.paint()
    }
}
