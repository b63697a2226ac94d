import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap map`: the world with the students' pins, sized to the terminal, and a legend.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map", abstract: "Show the students' pins on a world map (-i: full screen, to pan, zoom and pick pins).",
        discussion: """
            Braille (2 by 4 dots a cell) on a UTF-8 locale, else ASCII. Your own pin is @ (or its own colour), \
            several pins in one cell show their count (in your colour when yours is one of them). \
            On a terminal, a legend longer than a fifth of it is left out (`onthemap map | less` shows it); \
            `onthemap open N` opens pin N of the last map. \
            Full screen keys: arrows or hjkl pan, + and - zoom, n/p or Tab pick a pin, Enter opens its link, \
            / jumps to a place, r refreshes, q quits.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    // `.unconditional`: a southern or western LAT,LON starts with "-" and must not read as a flag;
    // nor a negative radius, which then gets the range error instead of "missing value".
    @Option(parsing: .unconditional, help: "Centre on a place (geocoded) or LAT,LON (e.g. -33.9,151.2).")
    var near: String?

    @Option(parsing: .unconditional, help: "With --near: how many kilometres around it to show (default 500).")
    var radius: Double?

    @Option(help: "world (the default) or pins: the smallest view holding every pin.")
    var fit: MapParams.Fit?

    @Flag(help: "Plain ASCII instead of braille (automatic when the locale is not UTF-8).")
    var ascii = false

    @Flag(help: "The daemon's map result (rows, styles, pins, view) as JSON.")
    var json = false

    @Option(help: "Cells across (default: the terminal's width).")
    var width: Int?

    @Option(help: "Cells down (default: the terminal's height less two lines, and less a short legend).")
    var height: Int?

    @Flag(name: [.customShort("i"), .long], help: "Full screen: pan, zoom, pick pins, open links.")
    var interactive = false

    func validate() throws {
        if near != nil, fit != nil { throw ValidationError("Choose one of --near and --fit.") }
        if radius != nil, near == nil { throw ValidationError("--radius goes with --near.") }
        if let near { try NearOption.validate(near) }
        if let radius, !MapParams.radiusRange.contains(radius) {
            throw ValidationError("--radius must be between \(range: MapParams.radiusRange) km.")
        }
        if let width, !MapParams.widthRange.contains(width) { throw ValidationError("--width must be between \(range: MapParams.widthRange).") }
        if let height, !MapParams.heightRange.contains(height) {
            throw ValidationError("--height must be between \(range: MapParams.heightRange).")
        }
        if json, interactive { throw ValidationError("Choose one of --json and --interactive.") }
    }

    /// The params every request of this command shares.
    var where_: MapWhere {
        if let near { return .near(near, radiusKm: radius) }
        return .fit(fit ?? .world)
    }

    var charset: MapParams.Charset { ascii || !Terminal.localeIsUTF8 ? .ascii : .braille }

    func run() throws {
        if interactive {
            return try runReportingFailures {
                do {
                    try InteractiveMap(global: global, start: where_, charset: charset).run()
                } catch let failure as ExitCodeFailure {
                    throw ExitCode(failure.code)
                }
            }
        }
        try runReportingFailures {
            let terminal = Terminal.size()
            let legendRoom =
                json || !Terminal.stdoutIsTTY ? nil : Self.legendRoom(terminalRows: terminal?.rows, height: height)
            let size = (
                width ?? min(terminal?.columns ?? MapParams.defaultSize.width, MapParams.widthRange.upperBound),
                height ?? min((terminal?.rows).map { $0 - 2 } ?? MapParams.defaultSize.height, MapParams.heightRange.upperBound)
            )
            guard MapParams.widthRange.contains(size.0), MapParams.heightRange.contains(size.1) else {
                throw UsageFailure(message: "the terminal is too small for a map (\(size.0)×\(size.1 + 2)); it needs at least 10×7")
            }
            var result = try global.call(where_.params(width: size.0, height: size.1, charset: charset))
            let pinCount = result["pins"]?.elements.count ?? 0
            let showsLegend = legendRoom.map { pinCount <= $0 } ?? true
            if legendRoom != nil, showsLegend, pinCount > 0, size.1 - pinCount >= MapParams.heightRange.lowerBound {
                // A legend that fits goes under a map made that much shorter (which may hold fewer pins).
                result = try global.call(where_.params(width: size.0, height: size.1 - pinCount, charset: charset))
            }
            if json {
                Output.line(result.serialized)
                return
            }
            let rows = (result["rows"]?.elements ?? []).compactMap(\.stringValue)
            let styles = (result["styles"]?.elements ?? []).compactMap(\.stringValue)
            let colour = Terminal.colorOnStdout
            for line in MapPainter.paint(rows: rows, styles: styles, colour: colour) { Output.line(line) }
            let pins = result["pins"]?.elements ?? []
            let style = Style(enabled: colour)
            let counted = "\(pins.count) \(pins.count == 1 ? "pin" : "pins") in view"
            if showsLegend {
                Output.line(style.dim("\(counted); `onthemap open N` opens one"))
                for line in MapPainter.legend(pins, width: terminal?.columns, style: style) { Output.line(line) }
            } else {
                Output.line(style.dim("\(counted); `onthemap map | less` lists them, `onthemap open N` opens one"))
            }
            LastTable.save(pins.map(StudentRow.init))
        }
    }

    /// On a terminal (not piped, not `--json`), with no `--height`: how long a legend may be and still
    /// be shown (a fifth of the screen, at least 3 lines), under a map that much shorter; a longer one
    /// is left out, so the map is on screen when the command ends (a hundred pins' legend scrolled it
    /// away) and keeps its full height (every row taken from the world view costs it latitude). Nil:
    /// the whole legend, always (piped, or a height the user chose).
    static func legendRoom(terminalRows: Int?, height: Int?) -> Int? {
        guard height == nil, let rows = terminalRows else { return nil }
        return max(0, min(max(3, rows / 5), rows - 2 - MapParams.heightRange.lowerBound))
    }
}

extension MapParams.Fit: ExpressibleByArgument {}

extension DefaultStringInterpolation {
    /// "10 and 1000": a range as the usage errors say it.
    mutating func appendInterpolation(range: ClosedRange<Int>) {
        appendLiteral("\(range.lowerBound) and \(range.upperBound)")
    }

    /// "0.1 and 20100": numbers as JSON writes them.
    mutating func appendInterpolation(range: ClosedRange<Double>) {
        appendLiteral("\(WireJSON.format(range.lowerBound)) and \(WireJSON.format(range.upperBound))")
    }
}

/// Where a map looks, as the client asks for it.
enum MapWhere: Equatable {
    case fit(MapParams.Fit)
    case near(String, radiusKm: Double?)
    case center(latitude: Double, longitude: Double, zoom: Double)

    func params(width: Int, height: Int, charset: MapParams.Charset) -> MapParams {
        var params = MapParams(width: width, height: height, charset: charset)
        switch self {
        case .fit(let fit):
            params.fit = fit
        case .near(let place, let radiusKm):
            params.near = .place(place)
            params.radiusKm = radiusKm
        case .center(let latitude, let longitude, let zoom):
            params.center = .init(latitude: latitude, longitude: longitude)
            params.zoom = zoom
        }
        return params
    }
}
