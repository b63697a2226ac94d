import Foundation
import OnTheMapModels

/// The cached student locations, newest first, each with its search key folded once and its JSON
/// written once: every answer and the cache file splice those bytes instead of serializing per
/// request. A value: a snapshot holds one and shares its storage with the next.
struct StudentList: Sendable {
    /// One cached location.
    struct Entry: Sendable {
        var location: StudentLocation
        var searchKey: String
        /// The bytes of `location.wireJSON.serialized`, a slice of one buffer shared by all entries.
        var json: ArraySlice<UInt8>
    }

    private(set) var entries: [Entry] = []

    static let empty = StudentList()

    private init() {}

    /// Sorts `locations` newest first and writes each one's JSON. A link that is not an http(s) URL
    /// is dropped (left empty) here, on the way in: whatever a student stored (`javascript:`,
    /// `file:`, an option for the opener), every client gets only web links to open.
    init(_ locations: [StudentLocation]) {
        let sorted = locations.sorted { ($0.updatedAt ?? .distantPast) > ($1.updatedAt ?? .distantPast) }.map { location in
            var safe = location
            safe.mediaURL = WebLink.opening(location.mediaURL) ?? ""
            return safe
        }
        var json: [UInt8] = []
        json.reserveCapacity(sorted.count * 320)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(sorted.count)
        for index in sorted.indices {
            let start = json.count
            sorted[index].writeWireJSON(into: &json)
            ranges.append(start..<json.count)
        }
        entries = zip(sorted, ranges).map { location, range in
            Entry(
                location: location,
                searchKey: SearchText.fold("\(location.firstName) \(location.lastName) \(location.mapString)"),
                json: json[range])
        }
    }

    var count: Int { entries.count }

    /// The newest pin of an account among these locations.
    func newestLocation(ofAccount key: String) -> StudentLocation? {
        entries.first { $0.location.uniqueKey == key }?.location
    }
}
