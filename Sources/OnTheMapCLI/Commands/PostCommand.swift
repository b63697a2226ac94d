import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap post PLACE URL`: geocode, confirm, post (or overwrite).
struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Post your pin: a place and a link.",
        discussion: "Shows the place it found and asks before posting; --yes and --overwrite answer for scripts.\n\n\(ExitStatus.help)")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Where you are, as you would say it.")
    var place: String

    @Argument(help: "Your link (http or https).")
    var url: String

    @Flag(help: "Do not ask to confirm the place.")
    var yes = false

    @Flag(help: "Move your existing pin without asking.")
    var overwrite = false

    @Flag(help: "Print the daemon's result ({pin, created}) as JSON instead of a sentence.")
    var json = false

    func run() throws {
        try runReportingFailures {
            let connection = try global.connect()
            let found = try connection.result(GeocodeParams(query: place, limit: 1))
            guard let best = found.results.first else {
                throw RPCError.application(RPCError.placeNotFoundCode, "No place matches \"\(place)\".", retryable: false)
            }
            if !yes {
                guard Terminal.stdinIsTTY else { throw UsageFailure(message: "no terminal to confirm on: add --yes") }
                Output.error("place: \(GeocodeCommand.describe(best))")
                guard Terminal.confirm("Post your pin there?") else { throw ExitCode(ExitStatus.daemonError) }
            }
            var params = PostPinParams(
                mapString: place, mediaURL: url, latitude: best.latitude, longitude: best.longitude, overwrite: overwrite)
            var result = try connection.call(params)
            if case .failure(let error) = result, error.code == RPCError.pinExistsCode, !overwrite {
                let existing = error.data?["pin"]?["mapString"]?.stringValue ?? "somewhere"
                guard Terminal.stdinIsTTY else {
                    throw RPCError(code: error.code, message: "you already have a pin at \"\(existing)\": add --overwrite to move it", data: error.data)
                }
                guard Terminal.confirm("You already have a pin at \"\(existing)\". Move it?") else { throw ExitCode(ExitStatus.daemonError) }
                params.overwrite = true
                result = try connection.call(params)
            }
            let posted = try result.get()
            Output.line(json ? posted.serialized : Self.sentence(posted))
        }
    }

    /// "pin posted at Lima, Peru (-12.05, -77.04)", or "pin moved to …".
    static func sentence(_ result: WireJSON) -> String {
        let pin = result["pin"]
        let place = pin?["mapString"]?.stringValue ?? "?"
        let coordinates = [pin?["latitude"], pin?["longitude"]].map { value in
            value??.doubleValue.map { WireJSON.format(($0 * 100).rounded() / 100) } ?? "?"
        }
        let verb = result["created"]?.boolValue == false ? "pin moved to" : "pin posted at"
        return "\(verb) \(place) (\(coordinates[0]), \(coordinates[1]))"
    }
}
