import Foundation
import OnTheMapModels

/// The student list as `students.json` keeps it between runs:
/// `{"locations":[…],"refreshedAt":<seconds since 2001>,"unplaceable":N}`, the shape `JSONEncoder`
/// gave it (so files written by earlier versions still load).
struct CachedList: Codable, Equatable {
    var locations: [StudentLocation]
    var refreshedAt: Date
    var unplaceable: Int

    /// The file's bytes, from each location's JSON as the cache already holds it: `JSONEncoder`
    /// took a fifth of a 10,000-location refresh.
    static func fileBytes(
        locationsJSON: [ArraySlice<UInt8>], refreshedAt: Date, unplaceable: Int
    ) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64 + locationsJSON.reduce(0) { $0 + $1.count + 1 })
        output.append(contentsOf: #"{"locations":["#.utf8)
        for index in locationsJSON.indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: locationsJSON[index])
        }
        output.append(contentsOf: #"],"refreshedAt":"#.utf8)
        // Every digit of the Double, as JSONEncoder writes it, so the date reads back exactly.
        output.append(contentsOf: "\(refreshedAt.timeIntervalSinceReferenceDate)".utf8)
        output.append(contentsOf: #","unplaceable":"#.utf8)
        output.append(contentsOf: String(unplaceable).utf8)
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// Reads a file written by `fileBytes` or by `JSONEncoder`; nil when it is not such a file.
    init?(fileContents data: Data) {
        if let parsed = try? WireJSON.parse(data),
            case .array(let records)? = parsed.onlyMember("locations"),
            let list = StudentLocationList(wireRecords: records), list.unplaceable.isEmpty,
            let seconds = parsed.onlyMember("refreshedAt")?.doubleValue,
            case .integer(let unplaceable)? = parsed.onlyMember("unplaceable")
        {
            self.init(locations: list.results, refreshedAt: Date(timeIntervalSinceReferenceDate: seconds), unplaceable: unplaceable)
        } else if let decoded = try? JSONDecoder().decode(CachedList.self, from: data) {
            self = decoded
        } else {
            return nil
        }
    }

    init(locations: [StudentLocation], refreshedAt: Date, unplaceable: Int) {
        self.locations = locations
        self.refreshedAt = refreshedAt
        self.unplaceable = unplaceable
    }
}
