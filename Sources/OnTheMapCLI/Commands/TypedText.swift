import ArgumentParser
import OnTheMapModels
import OnTheMapRPC

/// What a person types, held to the daemon's rules before it is sent: the daemon's refusal names its
/// param ("query is too long") and would read as two versions that do not match.
enum TypedText {
    /// A usage error when `text` is longer than `bytes` (UTF-8, as the daemon counts), or, with
    /// `controls`, holds a control character inside it (a line end a script's file left is trimmed,
    /// as it is when sent): pasted with the text, unseen, it split "Pa^[]0;x^Gris" into words that
    /// matched another place ("Ris-Orangis"). A link's are named by `WebLink`'s own reasons.
    static func check(_ text: String, atMost bytes: Int, _ what: String, controls: Bool = true) throws {
        let count = text.utf8.count
        if count > bytes { throw ValidationError("\(what) is too long: at most \(bytes) bytes, and it has \(count).") }
        if controls, let control = text.trimmingWhitespace().unicodeScalars.first(where: DisplayText.isControl) {
            throw ValidationError("\(what) holds a control character (\(DisplayText.codePoint(control))): type it again rather than paste it.")
        }
    }

    /// A place (geocoded): `geocode`, `post`, `--near`.
    static let place = GeocodeParams.maximumQueryBytes
    /// Words to search for: `--search`, a name for `open`.
    static let search = StudentsParams.maximumSearchBytes
}
