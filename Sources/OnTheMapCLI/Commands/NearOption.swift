import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// `--near` of `students` and `map`: a place's name, or LAT,LON.
enum NearOption {
    /// `--radius`, which goes with `--near`: the kilometres the daemon's map takes, for `students` too.
    static let radius = NumberRange(MapParams.radiusRange, unit: .km)

    /// Two numbers must be coordinates in range: a usage error now, not "no place matches" later.
    static func validate(_ text: String) throws {
        guard !text.trimmingWhitespace().isEmpty else {
            throw ValidationError("--near needs a place or LAT,LON, e.g. --near \"Lima, Peru\" or --near 48.85,2.35.")
        }
        try TypedText.check(text, atMost: TypedText.place, "--near")
        do {
            _ = try CoordinateText.parse(text)
        } catch {
            throw ValidationError("--near: \(error.description).")
        }
    }

    /// `LAT,LON` as given, or the place the daemon finds for a name, which is named on stderr
    /// ("near Springfield, Missouri (37.22, -93.30)") so nobody wonders which one was used.
    static func resolve(_ text: String, on connection: RPCConnection) throws -> (name: String, latitude: Double, longitude: Double) {
        if let coordinates = try CoordinateText.parse(text) {
            return (Coordinates.text(coordinates.latitude, coordinates.longitude), coordinates.latitude, coordinates.longitude)
        }
        guard let best = try Place.candidates(text, limit: 1, on: connection).first else {
            throw Place.notFound(text, orCoordinates: true)
        }
        Output.error("near \(DisplayText.clean(best.label)) \(Coordinates.text(best.latitude, best.longitude))")
        return (best.label, best.latitude, best.longitude)
    }
}
