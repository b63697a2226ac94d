import OnTheMapModels

/// `--json`, `--tsv` and `--geojson` of a list of pins.
enum StudentExports {
    static let tsvColumns = [
        "firstName", "lastName", "mapString", "mediaURL", "latitude", "longitude", "updatedAt", "createdAt", "objectId",
        "uniqueKey",
    ]

    /// A header row, then one row per student, each value made safe to show (`DisplayText`: a tab or
    /// a line break inside a value becomes a space, so a record stays one line of its columns). Rows
    /// from a `--near` query add a `distanceKm` column.
    static func tsv(_ pins: [StudentPin]) -> String {
        let withDistance = pins.contains { $0.distanceKm != nil }
        var lines = [(tsvColumns + (withDistance ? ["distanceKm"] : [])).joined(separator: "\t")]
        for pin in pins {
            let student = pin.student
            var values = [
                student.firstName, student.lastName, student.mapString, student.mediaURL, WireJSON.format(student.latitude),
                WireJSON.format(student.longitude), student.updatedAt.map(WireTimestamp.milliseconds) ?? "",
                student.createdAt.map(WireTimestamp.milliseconds) ?? "", student.objectId, student.uniqueKey,
            ]
            if withDistance { values.append(pin.distanceKm.map(WireJSON.format) ?? "") }
            lines.append(values.map(DisplayText.clean).joined(separator: "\t"))
        }
        return lines.joined(separator: "\n")
    }

    /// A FeatureCollection of Points ([longitude, latitude]) with every field of the pin as a property.
    static func geoJSON(_ pins: [StudentPin]) throws -> [UInt8] {
        try Output.jsonBytes(
            FeatureCollection(features: pins.map { pin in
                Feature(geometry: Point(coordinates: [pin.student.longitude, pin.student.latitude]), properties: pin)
            }))
    }

    private struct FeatureCollection: Encodable {
        var type = "FeatureCollection"
        var features: [Feature]
    }

    private struct Feature: Encodable {
        var type = "Feature"
        var geometry: Point
        var properties: StudentPin
    }

    private struct Point: Encodable {
        var type = "Point"
        var coordinates: [Double]
    }
}
