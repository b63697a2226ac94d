import OnTheMapModels

/// A student as the client shows it, read from the daemon's JSON.
struct StudentRow {
    var json: WireJSON

    var firstName: String { json["firstName"]?.stringValue ?? "" }
    var lastName: String { json["lastName"]?.stringValue ?? "" }
    var name: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
    var place: String { json["mapString"]?.stringValue ?? "" }
    var link: String { json["mediaURL"]?.stringValue ?? "" }
    var latitude: Double { json["latitude"]?.doubleValue ?? 0 }
    var longitude: Double { json["longitude"]?.doubleValue ?? 0 }
    var updatedAt: String? { json["updatedAt"]?.stringValue }
    /// Set on the answers of a `near` query.
    var distanceKm: Double? { json["distanceKm"]?.doubleValue }

    static func rows(_ value: WireJSON?) -> [StudentRow] {
        guard case .array(let elements)? = value else { return [] }
        return elements.map(StudentRow.init)
    }
}
