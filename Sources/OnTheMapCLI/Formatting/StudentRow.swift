import OnTheMapModels
import OnTheMapRPC

/// A student as the client shows it: the daemon's object (which `--json`, `--tsv` and `--geojson`
/// print as sent), read once into a `StudentLocation` for everything else.
struct StudentRow {
    /// The student as the daemon sent it.
    var json: WireJSON
    /// The same, read by the wire's rules (a record the daemon sent is always placeable; one that is
    /// not reads as blank).
    var student: StudentLocation
    /// Set on the answers of a `near` query.
    var distanceKm: Double?
    /// The logged-in user's own pin.
    var mine: Bool

    init(json: WireJSON) {
        self.json = json
        student = StudentLocation(wireJSON: json) ?? Self.blank
        distanceKm = json["distanceKm"]?.doubleValue
        mine = json["mine"]?.boolValue == true
    }

    var firstName: String { student.firstName }
    var lastName: String { student.lastName }
    var name: String { student.fullName }
    var place: String { student.mapString }
    var link: String { student.mediaURL }
    var latitude: Double { student.latitude }
    var longitude: Double { student.longitude }
    var updatedAt: String? { json["updatedAt"]?.stringValue }

    /// The rows of a `students` result, the user's own marked (`accountKey`: from `status`).
    static func rows(_ result: StudentsResult, accountKey: String? = nil) -> [StudentRow] {
        result.students.map { json in
            var row = StudentRow(json: json)
            if let accountKey, !accountKey.isEmpty, row.student.uniqueKey == accountKey { row.mine = true }
            return row
        }
    }

    private static let blank = StudentLocation(
        objectId: "", uniqueKey: "", firstName: "", lastName: "", mapString: "", mediaURL: "", latitude: 0, longitude: 0,
        createdAt: nil, updatedAt: nil)
}
