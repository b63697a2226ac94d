import ArgumentParser
import OnTheMapRPC

/// What a person types, held to the daemon's bound before it is sent: the daemon's refusal names its
/// param ("query is too long") and would read as two versions that do not match.
enum TypedLength {
    /// A usage error when `text` is longer than `bytes` (UTF-8, as the daemon counts).
    static func check(_ text: String, atMost bytes: Int, _ what: String) throws {
        let count = text.utf8.count
        guard count > bytes else { return }
        throw ValidationError("\(what) is too long: at most \(bytes) bytes, and it has \(count).")
    }

    /// A place (geocoded): `geocode`, `post`, `--near`.
    static let place = GeocodeParams.maximumQueryBytes
    /// Words to search for: `--search`, a name for `open`.
    static let search = StudentsParams.maximumSearchBytes
}
