import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap geocode PLACE`: the preview step before posting.
struct GeocodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode", abstract: "Show the places a text could mean.",
        discussion: """
            One place a line, best first: the name a pin posted there shows, its coordinates, and how \
            precise it is. When nothing matches, says so on stderr and exits 1 (a question with no answer).

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A place, e.g. \"Duisburg, Germany\".")
    var place: String

    @Flag(help: "The candidates as JSON.")
    var json = false

    func validate() throws {
        guard !place.trimmingWhitespace().isEmpty else { throw ValidationError("Give a place, e.g. onthemap geocode \"Duisburg, Germany\".") }
    }

    func run() throws {
        try runReportingFailures {
            let answer: WireJSON
            switch try global.connect().call(GeocodeParams(query: place)) {
            case .success(let result): answer = result
            case .failure(let error) where error.code == RPCError.placeNotFoundCode: answer = .object([("results", .array([]))])
            case .failure(let error): throw error
            }
            let found = GeocodeResults(wireJSON: answer)
            if json {
                Output.line((answer["results"] ?? .array([])).serialized)
            } else {
                for candidate in found.results { Output.line(Self.describe(candidate)) }
            }
            if found.results.isEmpty { throw Place.notFound(place) }
        }
    }

    /// "Springfield, Missouri  (37.22, -93.30)  locality".
    static func describe(_ candidate: GeocodeResult) -> String {
        "\(candidate.placeName)  \(Coordinates.text(candidate.latitude, candidate.longitude))  \(candidate.precision)"
    }
}
