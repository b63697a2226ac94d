import ArgumentParser
import OnTheMapModels

/// `--near` of `students` and `map`: a place's name, or LAT,LON.
enum NearOption {
    /// Two numbers must be coordinates in range: a usage error now, not "no place matches" later.
    static func validate(_ text: String) throws {
        do {
            _ = try CoordinateText.parse(text)
        } catch {
            throw ValidationError("--near: \(error.description).")
        }
    }
}
