import OnTheMapModels

/// `--tsv` and `--geojson`.
enum StudentExports {
    static let tsvColumns = [
        "firstName", "lastName", "mapString", "mediaURL", "latitude", "longitude", "updatedAt", "createdAt", "objectId",
        "uniqueKey",
    ]

    /// A header row, then one row per student; tabs and newlines inside values become spaces. Rows
    /// from a `--near` query add a `distanceKm` column.
    static func tsv(_ rows: [StudentRow]) -> String {
        let columns = tsvColumns + (rows.contains { $0.distanceKm != nil } ? ["distanceKm"] : [])
        var lines = [columns.joined(separator: "\t")]
        for row in rows {
            lines.append(columns.map { column in
                let value: String
                switch row.json[column] {
                case .string(let text)?: value = text
                case .number(let number)?: value = WireJSON.format(number)
                case .integer(let integer)?: value = String(integer)
                default: value = ""
                }
                return String(value.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
            }.joined(separator: "\t"))
        }
        return lines.joined(separator: "\n")
    }

    /// A FeatureCollection of Points ([longitude, latitude]) with every field as a property.
    static func geoJSON(_ rows: [StudentRow]) -> String {
        WireJSON.object([
            ("type", .string("FeatureCollection")),
            ("features", .array(rows.map { row in
                .object([
                    ("type", .string("Feature")),
                    ("geometry", .object([
                        ("type", .string("Point")),
                        ("coordinates", .array([.number(row.longitude), .number(row.latitude)])),
                    ])),
                    ("properties", row.json),
                ])
            })),
        ]).serialized
    }
}
