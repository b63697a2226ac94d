import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapFolding
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// `onthemap students`.
struct StudentsCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "students", abstract: "List students, newest first (or nearest first with --near).",
        discussion: """
            Your own pin is marked "(you)". With --near PLACE, the place used is named on stderr. \
            When nothing matches, a line on stderr says so and the exit status is still 0 (the table \
            prints nothing, --json [], --tsv its header). With --refresh, a refresh that fails prints \
            the list as it was and exits 1. When a search or a place matches more than --limit shows, a \
            line on stderr says how many. Beyond the daemon's cache (the newest 100 by default), --limit, \
            --search and --near are answered from the server, up to its newest 10,000; when that bound, or \
            a server that cannot be reached, cut the list, a line on stderr says so.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    // `.unconditional`: "-3" must reach the range check, not read as a flag ("missing value").
    @Option(parsing: .unconditional, help: "At most this many.")
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
        try NumberRange(0...100_000).validate(limit, "--limit")
        if let search {
            try TypedText.check(search, atMost: TypedText.search, "--search")
            // The search reads letters and digits only (`SearchFolding`): "." or "" would match everyone.
            guard !SearchFolding.fold(search).isEmpty else {
                throw ValidationError("--search needs a letter or a digit: punctuation and spaces are not searched.")
            }
        }
        if let near { try NearOption.validate(near) }
        if let radius {
            guard near != nil else { throw ValidationError("--radius needs --near.") }
            try NearOption.radius.validate(radius, "--radius")
        }
    }

    func execute() throws {
        let connection = try global.connect()
        var params = StudentsParams(limit: limit, search: search, refresh: refresh ? true : nil)
        var placeName: String?
        if let near {
            let place = try NearOption.resolve(near, on: connection)
            placeName = place.name
            params.near = .init(latitude: place.latitude, longitude: place.longitude, radiusKm: radius)
        }
        let result = try connection.result(params)
        let table = !json && !tsv && !geojson
        let rows = result.students
        if json {
            try Output.json(rows)
        } else if tsv {
            Output.line(StudentExports.tsv(rows))
        } else if geojson {
            Output.out(String(decoding: try StudentExports.geoJSON(rows) + [UInt8(ascii: "\n")], as: UTF8.self))
        } else {
            if !rows.isEmpty {
                Output.line(StudentTable.render(rows, width: Terminal.width, now: Date(), style: Style(enabled: Terminal.colorOnStdout)))
            }
            LastTable.save(rows)
        }
        if rows.isEmpty {
            // How far it looked qualifies the finding, on its line: "no student matches" alone, then
            // that only the cache was looked at, claimed what was not checked.
            let looked = result.limitedTo.map { " (" + Self.onlyLookedAt($0, source: result.source) + ")" } ?? ""
            Output.error(nothingMatched(total: result.total, place: placeName.map(DisplayText.clean)) + looked)
        }
        // A search or a radius matched more than --limit shows: said, as no list is silently short.
        // (Without one, the newest N are what was asked for, as --near alone asks for the N nearest:
        // every student "matches" a nearness, and the note came every time.)
        if search != nil || radius != nil, !rows.isEmpty, result.total > rows.count {
            Output.error("onthemap: \(CountText.grouped(rows.count)) of \(CountText.grouped(result.total)) matches shown; --limit \(result.total) shows them all")
        }
        if let looked = result.limitedTo, !rows.isEmpty { Output.error("onthemap: " + Self.onlyLookedAt(looked, source: result.source)) }
        if refresh, result.stale {
            let why = DisplayText.clean(try connection.result(StatusParams()).students.lastError ?? "the API did not answer")
            let age = result.refreshedAt.map { " as of " + RelativeTime.describe($0, now: Date()) } ?? ""
            throw CommandFailure(message: "the refresh failed (\(why)); these are the students\(age)")
        }
        if table, result.stale {
            Output.error("onthemap: the list may be stale; `onthemap status` says why")
        }
    }

    /// Why a list may be shorter than asked for: fewer students were looked at than the server holds.
    static func onlyLookedAt(_ looked: Int, source: StudentsResult.Source) -> String {
        switch source {
        case .server: "only the newest \(CountText.grouped(looked)) students were looked at; the server has more"
        case .cache where looked == 0: "the server could not be reached, and no students are cached yet"
        case .cache: "the server could not be reached: only the \(CountText.grouped(looked)) cached students were looked at"
        }
    }

    /// "no student matches "zzzz" within 10 km of Paris, France": what was asked, found empty.
    func nothingMatched(total: Int, place: String?) -> String {
        if limit == 0 { return "no students shown: --limit 0 (\(total) match)" }
        var asked: [String] = []
        if let search { asked.append("matches \"\(DisplayText.clean(search))\"") }
        if let place {
            asked.append(radius.map { "within \(WireJSON.format($0)) km of \(place)" } ?? "near \(place)")
        }
        guard !asked.isEmpty else { return "no students yet: the list is empty (`onthemap refresh` fetches it)" }
        return "no student " + asked.joined(separator: " ")
    }
}
