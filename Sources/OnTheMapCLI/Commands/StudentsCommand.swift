import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap students`.
struct StudentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "students", abstract: "List students, newest first (or nearest first with --near).",
        discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    @Option(help: "At most this many.")
    var limit = 100

    @Option(help: "Only students whose name or place contains these words (any case, any accents).")
    var search: String?

    // `.unconditional`: a southern or western LAT,LON starts with "-" and must not read as a flag;
    // nor a negative radius, which then gets the range error instead of "missing value".
    @Option(parsing: .unconditional, help: "Nearest first, with each one's distance: a place (geocoded) or LAT,LON (e.g. -33.9,151.2).")
    var near: String?

    @Option(parsing: .unconditional, help: "With --near: only students within this many kilometres.")
    var radius: Double?

    @Flag(help: "Fetch from the API first.")
    var refresh = false

    @Flag(help: "The daemon's student objects as a JSON array.")
    var json = false

    @Flag(help: "Tab-separated values with a header row.")
    var tsv = false

    @Flag(help: "A GeoJSON FeatureCollection (opens in QGIS and geojson.io).")
    var geojson = false

    func validate() throws {
        guard [json, tsv, geojson].filter({ $0 }).count <= 1 else {
            throw ValidationError("Choose one of --json, --tsv and --geojson.")
        }
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more.") }
        if let near { try NearOption.validate(near) }
        if let radius {
            guard near != nil else { throw ValidationError("--radius needs --near.") }
            guard radius > 0, radius <= 20_100 else { throw ValidationError("--radius must be between 0 and 20100 km.") }
        }
    }

    func run() throws {
        try runReportingFailures {
            var params = StudentsParams(limit: limit, search: search, refresh: refresh ? true : nil)
            if let near {
                let point = try resolveNear(near)
                params.near = .init(latitude: point.latitude, longitude: point.longitude, radiusKm: radius)
            }
            let result = try global.call(params)
            let rows = StudentRow.rows(result["students"])
            if json {
                Output.line((result["students"] ?? .array([])).serialized)
            } else if tsv {
                Output.line(StudentExports.tsv(rows))
            } else if geojson {
                Output.line(StudentExports.geoJSON(rows))
            } else {
                Output.line(StudentTable.render(rows, width: Terminal.width, now: Date(), style: Style(enabled: Terminal.colorOnStdout)))
                if result["stale"]?.boolValue == true {
                    Output.error("onthemap: the list may be stale; `onthemap status` says why")
                }
                LastTable.save(rows)
            }
        }
    }

    /// `LAT,LON`, or a place the daemon geocodes.
    private func resolveNear(_ text: String) throws -> (latitude: Double, longitude: Double) {
        if let coordinates = try CoordinateText.parse(text) { return coordinates }
        guard let best = try global.result(GeocodeParams(query: text, limit: 1)).results.first else {
            throw UsageFailure(message: "cannot place \"\(text)\"")
        }
        return (best.latitude, best.longitude)
    }
}
