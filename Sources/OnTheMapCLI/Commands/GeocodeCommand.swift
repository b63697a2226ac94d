import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap geocode PLACE`: the preview step before posting.
struct GeocodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "geocode", abstract: "Show the places a text could mean.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A place, e.g. \"Duisburg, Germany\".")
    var place: String

    @Flag(help: "The candidates as JSON.")
    var json = false

    func run() throws {
        try runReportingFailures {
            let result = try global.call(GeocodeParams(query: place))
            if json {
                Output.line((result["results"] ?? .array([])).serialized)
                return
            }
            for candidate in GeocodeResults(wireJSON: result).results { Output.line(Self.describe(candidate)) }
        }
    }

    static func describe(_ candidate: GeocodeResult) -> String {
        "\(candidate.label)  (\(WireJSON.format(candidate.latitude)), \(WireJSON.format(candidate.longitude)))  \(candidate.precision)"
    }
}
