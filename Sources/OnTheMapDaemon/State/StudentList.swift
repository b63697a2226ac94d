import Foundation
import OnTheMapModels

/// The cached student locations, newest first, each with its search key folded once and its JSON
/// written once: every answer and the cache file splice those bytes instead of serializing per
/// request. A value: a snapshot holds one and shares its storage with the next.
struct StudentList: Sendable {
    /// One cached location.
    struct Entry: Sendable {
        /// As clients get it: its link dropped (left empty) unless it is a web link.
        var location: StudentLocation
        var searchKey: String
        /// The bytes of `location.wireJSON.serialized`, a slice of one buffer shared by all entries.
        var json: ArraySlice<UInt8>

        /// Whether `location`, as the upstream sent it, makes this entry: it does when it equals the
        /// entry's location, since checking and trimming a link change nothing in one that passed
        /// them. (A location whose link they changed never equals its entry, and is made again.)
        func isMade(from location: StudentLocation) -> Bool {
            self.location == location
        }
    }

    private(set) var entries: [Entry] = []

    static let empty = StudentList()

    private init() {}

    /// Sorts `locations` newest first and writes each one's JSON. A link that is not an http(s) URL
    /// is dropped (left empty) here, on the way in: whatever a student stored (`javascript:`,
    /// `file:`, an option for the opener), every client gets only web links to open.
    ///
    /// `previous`: the list these locations replace. A location found there unchanged keeps what was
    /// made of it (its link checked, its search key folded, its JSON written): a refresh of 10,000
    /// that finds a few new pins does the work for those few.
    init(_ locations: [StudentLocation], replacing previous: StudentList = .empty) {
        var earlier: [String: Int] = [:]
        earlier.reserveCapacity(previous.entries.count)
        for (index, entry) in previous.entries.enumerated() { earlier[entry.location.objectId] = index }
        let sorted = locations.sorted { ($0.updatedAt ?? .distantPast) > ($1.updatedAt ?? .distantPast) }
        var json: [UInt8] = []
        json.reserveCapacity(sorted.count * 320)
        var made: [Entry] = []
        made.reserveCapacity(sorted.count)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(sorted.count)
        for location in sorted {
            let start = json.count
            if let index = earlier[location.objectId], previous.entries[index].isMade(from: location) {
                let entry = previous.entries[index]
                json.append(contentsOf: entry.json)
                made.append(entry)
            } else {
                var safe = location
                safe.mediaURL = WebLink.opening(location.mediaURL) ?? ""
                safe.writeWireJSON(into: &json)
                made.append(Entry(
                    location: safe,
                    searchKey: SearchText.fold("\(location.firstName) \(location.lastName) \(location.mapString)"),
                    json: []))
            }
            ranges.append(start..<json.count)
        }
        // Every entry's bytes are a slice of the one new buffer, so the previous list's buffer goes
        // with the previous list.
        for index in made.indices { made[index].json = json[ranges[index]] }
        entries = made
    }

    var count: Int { entries.count }

    /// The newest pin of an account among these locations.
    func newestLocation(ofAccount key: String) -> StudentLocation? {
        entries.first { $0.location.uniqueKey == key }?.location
    }
}
