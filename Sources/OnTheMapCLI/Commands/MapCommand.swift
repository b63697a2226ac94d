import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// `onthemap map`: the world with the students' pins, sized to the terminal, and a legend.
struct MapCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "map", abstract: "Show the students' pins on a world map (-i: full screen, to pan, zoom and pick pins).",
        discussion: """
            Braille (2 by 4 dots a cell) on a UTF-8 locale, else ASCII. A student's pin is * followed by its \
            number in the legend where there is room, your own pin is @ (or its own colour), several pins in \
            one cell show their count (in your colour when yours is one of them), or + with another pin beside \
            them, so no two counts run together. Countries and places are \
            named where they fit (--no-labels: none). On a terminal the legend takes at most a fifth of it \
            and says how many more pins there are (`onthemap map | less` lists them all); \
            `onthemap open N` opens pin N of the last map. --near takes places, continents and oceans \
            ("Europe", "Pacific"). \
            Full screen keys: ? lists them all; arrows or hjkl pan, + and - (or a and z) zoom, the mouse \
            wheel zooms and dragging pans where the terminal reports the mouse, n/p or Tab pick a pin and \
            centre it, Enter opens its link, / jumps to a place, 0 or w shows the whole world, r refreshes, \
            q quits. A pick the map moves away from is dropped; a daemon that goes away or a logout elsewhere \
            is waited for, saying so.

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

    // `.unconditional`, as every number: "-3" reaches the range check instead of reading as a flag.
    @Option(parsing: .unconditional, help: "Cells across (default: the terminal's width).")
    var width: Int?

    @Option(parsing: .unconditional, help: "Cells down (default: the terminal's height less two lines, and less a short legend).")
    var height: Int?

    @Flag(name: [.customShort("i"), .long], help: "Full screen: pan, zoom, pick pins, open links.")
    var interactive = false

    @Flag(help: "No names of countries and places (the pins keep the numbers the legend and `open N` use).")
    var noLabels = false

    func validate() throws {
        if near != nil, fit != nil { throw ValidationError("Choose one of --near and --fit.") }
        if radius != nil, near == nil { throw ValidationError("--radius goes with --near.") }
        if let near { try NearOption.validate(near) }
        try NearOption.radius.validate(radius, "--radius")
        try NumberRange(MapParams.widthRange).validate(width, "--width")
        try NumberRange(MapParams.heightRange).validate(height, "--height")
        if json, interactive { throw ValidationError("Choose one of --json and --interactive.") }
    }

    /// The params every request of this command shares.
    var where_: MapWhere {
        if let near { return .near(near, radiusKm: radius) }
        return .fit(fit ?? .world)
    }

    var charset: MapParams.Charset { ascii || !Terminal.localeIsUTF8 ? .ascii : .braille }

    func execute() throws {
        if interactive {
            return try InteractiveMap(global: global, start: where_, charset: charset, labels: !noLabels).run()
        }
        // As wide as the tables (`COLUMNS`, else the terminal's), as tall as `LINES` or the terminal.
        let columns = Terminal.width, rows = Terminal.rows
        let legendRoom = json || !Terminal.stdoutIsTTY ? nil : Self.legendRoom(terminalRows: rows, height: height)
        let size = (
            width ?? min(columns ?? MapParams.defaultSize.width, MapParams.widthRange.upperBound),
            height ?? min(rows.map { $0 - 2 } ?? MapParams.defaultSize.height, MapParams.heightRange.upperBound)
        )
        guard MapParams.widthRange.contains(size.0), MapParams.heightRange.contains(size.1) else {
            throw UsageFailure(message: "the terminal is too small for a map (\(size.0)×\(size.1 + 2)); it needs at least 10×7")
        }
        var result = try global.result(params(width: size.0, height: size.1))
        var legendLines = result.pins.count
        if let room = legendRoom, !result.pins.isEmpty {
            // On a terminal the legend always shows, under a map made that much shorter (which may
            // hold fewer pins): all of it when it fits in a fifth of the screen, else its first
            // lines and how many more there are.
            legendLines = min(result.pins.count, room)
            if size.1 - legendLines >= MapParams.heightRange.lowerBound {
                result = try global.result(params(width: size.0, height: size.1 - legendLines))
                legendLines = min(result.pins.count, room)
            } else {
                legendLines = 0
            }
        }
        if json {
            try Output.json(result)
            return
        }
        let colour = Terminal.colorOnStdout
        for line in MapPainter.paint(rows: result.rows, styles: result.styles, colour: colour) { Output.line(line) }
        let style = Style(enabled: colour)
        Output.line(style.dim(Self.summary(result, world: where_ == .fit(.world), width: columns, heightGiven: height != nil)))
        let shown = legendLines < result.pins.count ? max(legendLines - 1, 0) : result.pins.count
        for line in MapPainter.legend(Array(result.pins.prefix(shown)), width: columns, style: style) {
            Output.line(line)
        }
        if shown < result.pins.count {
            Output.line(style.dim(Self.legendMore(result.pins.count - shown, of: result.pins.count, width: columns)))
        }
        LastTable.save(result.pins)
    }

    private func params(width: Int, height: Int) -> MapParams {
        var params = where_.params(width: width, height: height, charset: charset)
        if noLabels { params.labels = false }
        return params
    }

    /// The line under the map: how many pins are in view and how many are not (and that only the
    /// newest students are drawn, when the daemon's cache is full), the place a `--near`
    /// name was found to be, and whether the world was cut to fit the terminal; within `width` columns
    /// when given (a wrapped line would push the map's top off the screen).
    /// `heightGiven`: the height came from --height, which then is what shows more, not the terminal.
    static func summary(_ result: MapResult, world: Bool, width: Int? = nil, heightGiven: Bool = false) -> String {
        let inView = result.pins.count
        var text = "\(CountText.grouped(inView)) \(inView == 1 ? "pin" : "pins") in view"
        if result.outside > 0 { text += ", \(CountText.grouped(result.outside)) outside it" }
        if let near = result.near { text += " around \(DisplayText.clean(near))" }
        let view = result.view
        var cut = ""
        var shortCut = ""
        if world, let (north, south) = MapViewBand.cut(of: view) {
            // The world view keeps the inhabited latitudes; a short terminal cuts them.
            cut = " (the world is cut at \(north) and \(south): \(heightGiven ? "a larger --height" : "a taller terminal") shows more)"
            shortCut = " (cut at \(north), \(south))"
        }
        let closest = view.isAtMaxZoom ? " (as close as the map draws)" : ""
        let drawn = result.limitedTo.map(CountText.grouped)
        let newest = drawn.map { " (only the newest \($0) students)" } ?? ""
        let shortNewest = drawn.map { " (newest \($0))" } ?? ""
        let hint = "; `onthemap open N` opens pin N"
        let candidates = [
            text + cut + closest + newest + hint, text + shortCut + closest + newest + hint,
            text + shortCut + closest + shortNewest + hint, text + shortCut + closest + shortNewest,
        ]
        guard let width else { return candidates[0] }
        return candidates.first { DisplayWidth.of($0) <= width } ?? DisplayWidth.truncate(candidates[3], to: width)
    }

    /// The line under a legend cut short: how many pins it leaves out and how to see them all, in
    /// `width` columns when given ("legend: 95 more (`onthemap map | less` lists them all)" is 54; a
    /// wrapped line would push the map's top off the screen).
    static func legendMore(_ more: Int, of all: Int, width: Int?) -> String {
        let what = more == all ? "\(more) \(more == 1 ? "pin" : "pins")" : "\(more) more"
        let candidates = [
            "legend: \(what) (`onthemap map | less` lists them all)", "legend: \(what): `onthemap map | less`",
            "\(what): `onthemap map | less`", "legend: \(what)", what,
        ]
        guard let width else { return candidates[0] }
        return candidates.first { DisplayWidth.of($0) <= width } ?? DisplayWidth.truncate(what, to: width)
    }

    /// On a terminal (not piped, not `--json`), with no `--height`: how many lines the legend may take
    /// under a map that much shorter: a fifth of the screen, at least 3 lines (on a terminal under 16
    /// lines, one: "legend: N pins"), so the map keeps most of its height (every row taken from the
    /// world view costs it latitude; at 60×12 a three-line legend left the map only 61°N to 6°S) and
    /// is still on screen when the command ends. Nil: the whole legend, always (piped, or a height the
    /// user chose).
    static func legendRoom(terminalRows: Int?, height: Int?) -> Int? {
        guard height == nil, let rows = terminalRows else { return nil }
        let wanted = rows < 16 ? 1 : max(3, rows / 5)
        return max(0, min(wanted, rows - 2 - MapParams.heightRange.lowerBound))
    }
}

/// The latitudes the world view keeps in view when it can (Tierra del Fuego to Greenland's north), as
/// the map module's `MapViewRequest.world` keeps them.
enum MapViewBand {
    static let north = 79.5
    static let south = -55.5

    /// "62°N", "40°S".
    static func degrees(_ latitude: Double) -> String {
        "\(Int(abs(latitude).rounded()))°\(latitude < 0 ? "S" : "N")"
    }

    /// Where a world view short of rows cut the band ("71°N", "30°S"), or nil when it shows it whole.
    static func cut(of view: MapResult.View) -> (north: String, south: String)? {
        guard view.north < north || view.south > south else { return nil }
        return (degrees(view.north), degrees(view.south))
    }
}

extension MapParams.Fit: ExpressibleByArgument {}

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
