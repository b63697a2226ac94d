import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// `onthemap geocode PLACE`: the preview step before posting.
struct GeocodeCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode", abstract: "Show the places a text could mean.",
        discussion: """
            One place a line, best first: the name a pin posted there shows, its coordinates, and how \
            precise it is. When nothing matches, says so on stderr and exits 1 (a question with no answer). \
            Coordinates (LAT,LON) need no lookup: they are their own one answer, as --near takes them.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A place, e.g. \"Duisburg, Germany\".")
    var place: String

    @Flag(help: "The candidates as JSON.")
    var json = false

    func validate() throws {
        guard !place.trimmingWhitespace().isEmpty else { throw ValidationError("Give a place, e.g. onthemap geocode \"Duisburg, Germany\".") }
        try TypedText.check(place, atMost: TypedText.place, "The place")
        do {
            _ = try CoordinateText.parse(place)
        } catch {
            throw ValidationError("\(error.description).")
        }
    }

    func execute() throws {
        let found = try Self.point(place).map { [$0] } ?? Place.candidates(place, limit: GeocodeParams.defaultLimit, on: try global.connect())
        if json {
            try Output.json(found)
        } else {
            for candidate in found { Output.line(Self.describe(candidate, width: Terminal.width)) }
        }
        if found.isEmpty { throw Place.notFound(place) }
    }

    /// "Springfield, Missouri, United States  (37.22, -93.30)  a town or city"; within `width`
    /// columns when given (a terminal's: a wrapped line broke inside the coordinates), its kind left
    /// out first, then its label cut with "…": the coordinates stay whole.
    static func describe(_ candidate: GeocodeResult, width: Int? = nil) -> String {
        let label = DisplayText.clean(candidate.label)
        let coordinates = Coordinates.text(candidate.latitude, candidate.longitude)
        let whole = label + "  " + coordinates + "  " + kind(of: candidate)
        guard let width, DisplayWidth.of(whole) > width else { return whole }
        let withoutKind = label + "  " + coordinates
        guard DisplayWidth.of(withoutKind) > width else { return withoutKind }
        let room = width - 2 - DisplayWidth.of(coordinates)
        guard room >= 8 else { return DisplayWidth.truncate(withoutKind, to: width) }
        return DisplayWidth.truncate(label, to: room) + "  " + coordinates
    }

    /// "40.7,-74" as the one answer it is, as `--near` and map -i's `/` take it: the point itself,
    /// named by its numbers, precision "coordinates". Nil for a text that is not two numbers.
    static func point(_ text: String) throws -> GeocodeResult? {
        guard let point = try CoordinateText.parse(text) else { return nil }
        let numbers = WireJSON.format(point.latitude) + ", " + WireJSON.format(point.longitude)
        return GeocodeResult(
            name: numbers, admin1: "", country: "", countryCode: "", latitude: point.latitude, longitude: point.longitude,
            precision: "coordinates", score: 1)
    }

    /// What kind of place a candidate is, in words.
    static func kind(of candidate: GeocodeResult) -> String {
        switch candidate.precision {
        case "locality": "a town or city"
        case "region": "a region"
        case "country": "a country"
        case "continent": "a continent"
        case "ocean": "an ocean or sea"
        case "coordinates": "coordinates, taken as they are"
        default: "a place"
        }
    }
}
