import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap map`: the world with the students' pins, sized to the terminal, and a legend.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map", abstract: "Show the students' pins on a world map (-i: full screen, to pan, zoom and pick pins).",
        discussion: """
            Braille (2×4 dots a cell) on a UTF-8 locale, else ASCII. Your own pin is @ (or its own colour), \
            several pins in one cell show their count. `onthemap open N` opens pin N of the last map. \
            Full screen keys: arrows or hjkl pan, + and - zoom, n/p or Tab pick a pin, Enter opens its link, \
            / jumps to a place, r refreshes, q quits.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Centre on a place (geocoded) or LAT,LON.")
    var near: String?

    @Option(help: "With --near: how many kilometres around it to show (default 500).")
    var radius: Double?

    @Option(help: "world (the default) or pins: the smallest view holding every pin.")
    var fit: MapParams.Fit?

    @Flag(help: "Plain ASCII instead of braille (automatic when the locale is not UTF-8).")
    var ascii = false

    @Flag(help: "The daemon's map result (rows, styles, pins, view) as JSON.")
    var json = false

    @Option(help: "Cells across (default: the terminal's width).")
    var width: Int?

    @Option(help: "Cells down (default: the terminal's height less two lines).")
    var height: Int?

    @Flag(name: [.customShort("i"), .long], help: "Full screen: pan, zoom, pick pins, open links.")
    var interactive = false

    func validate() throws {
        if near != nil, fit != nil { throw ValidationError("Choose one of --near and --fit.") }
        if radius != nil, near == nil { throw ValidationError("--radius goes with --near.") }
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
            let size = (
                width ?? min(terminal?.columns ?? MapParams.defaultSize.width, MapParams.widthRange.upperBound),
                height ?? min((terminal?.rows).map { $0 - 2 } ?? MapParams.defaultSize.height, MapParams.heightRange.upperBound)
            )
            guard MapParams.widthRange.contains(size.0), MapParams.heightRange.contains(size.1) else {
                throw UsageFailure(message: "the terminal is too small for a map (\(size.0)×\(size.1 + 2)); it needs at least 10×7")
            }
            let result = try global.call(where_.params(width: size.0, height: size.1, charset: charset))
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
            Output.line(style.dim("\(pins.count) \(pins.count == 1 ? "pin" : "pins") in view; `onthemap open N` opens one"))
            for line in MapPainter.legend(pins, width: terminal?.columns, style: style) { Output.line(line) }
            LastTable.save(pins.map(StudentRow.init))
        }
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
