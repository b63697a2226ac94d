import FoundationEssentials
import OnTheMapFolding
import OnTheMapGeocoder
import OnTheMapModels

/// The cached student locations, newest first, each with its search key folded once and its pin's
/// JSON encoded once: the one pre-encoded form the daemon keeps, so that an answer listing thousands
/// of pins (`students`, `map`) writes those bytes rather than encoding every pin per request
/// (`PinListAnswer`). A value: a snapshot holds one and shares its storage with the next.
///
/// Built off the event loops and the state actor (`Daemon.work`): 10,000 pins take tens of
/// milliseconds to encode.
struct StudentList: Sendable {
    /// One cached location.
    struct Entry: Sendable {
        /// As clients get it: its link dropped (left empty) unless it is a web link.
        var location: StudentLocation
        /// Whether it is the account's own.
        var mine: Bool
        /// Name and place, folded for search (`SearchFolding`).
        var searchKey: String
        /// `StudentPin(location, mine)` encoded through `WireCoding`; nil in a list made for one
        /// answer only, which encodes the pins it lists.
        var pinJSON: [UInt8]?
        /// The link as the upstream stored it, when it was dropped: the cache file keeps it, so a
        /// daemon started again finds why (`mediaURLDropped`) from the link, not from the file.
        var droppedLink: String?

        /// The location as the upstream sent it.
        var upstream: StudentLocation {
            guard let droppedLink else { return location }
            var original = location
            original.mediaURL = droppedLink
            original.mediaURLDropped = nil
            return original
        }

        var pin: StudentPin { StudentPin(student: location, mine: mine) }
    }

    private(set) var entries: [Entry] = []

    static let empty = StudentList()

    private init() {}

    /// Sorts `locations` newest first and (with `encodingPins`) encodes each one's pin for the account
    /// with `accountKey`.
    /// A link that is not an http(s) URL is dropped (left empty) here, on the way in: whatever a
    /// student stored (`javascript:`, `file:`, an option for the opener), every client gets only web
    /// links to open.
    /// A location that comes back as it is in `earlier` keeps its entry there: a refresh of 10,000
    /// locations in which one pin moved encodes one pin, not 10,000.
    init(_ locations: [StudentLocation], accountKey: String, encodingPins: Bool = true, reusing earlier: StudentList = .empty) {
        let sorted = locations.sorted { $1.isOlder(than: $0) }
        let encoder = WireCoding.encoder()
        let kept = Dictionary(earlier.entries.map { ($0.location.objectId, $0) }, uniquingKeysWith: { first, _ in first })
        entries = sorted.map { location in
            let safe = location.withWebLinkOnly
            let pin = StudentPin(safe, accountKey: accountKey)
            let droppedLink = safe.mediaURLDropped == nil ? nil : location.mediaURL
            if let same = kept[safe.objectId], same.location == safe, same.mine == pin.mine, same.droppedLink == droppedLink,
                (same.pinJSON != nil) == encodingPins
            {
                return same
            }
            return Entry(
                location: safe, mine: pin.mine,
                searchKey: SearchFolding.fold("\(location.firstName) \(location.lastName) \(location.mapString)"),
                // A pin is made of JSON values only: encoding it cannot fail.
                pinJSON: encodingPins ? (try? encoder.encode(pin)).map(Array.init) : nil, droppedLink: droppedLink)
        }
    }

    var count: Int { entries.count }

    /// The locations, as they are kept between runs: as the upstream sent them, each link dropped
    /// again (and why) when the list is read back.
    var locations: [StudentLocation] { entries.map(\.upstream) }

    /// The newest pin of an account among these locations.
    func newestLocation(ofAccount key: String) -> StudentLocation? {
        entries.first { $0.location.uniqueKey == key }?.location
    }
}

extension StudentLocation {
    /// The location as clients get it: its link dropped (left empty) unless it is a web link
    /// (`WebLink`: http or https, no control, bidi or other invisible character), whatever the
    /// upstream stored, and why it was dropped in `mediaURLDropped` (what the upstream sent there is
    /// never passed on).
    var withWebLinkOnly: StudentLocation {
        var safe = self
        let link = mediaURL.trimmingWhitespace()
        let problem = link.isEmpty ? nil : WebLink.problem(link)
        safe.mediaURL = problem == nil ? link : ""
        safe.mediaURLDropped = problem
        return safe
    }
}

extension StudentList {
    /// The list with `location` in its place, newest first (first, for a pin just written; any
    /// earlier entry of the same pin taken out), and only its pin encoded anew: what a confirmed
    /// write changes in the cache. A cache holding the newest `capacity` keeps that many: the oldest
    /// goes.
    func placing(_ location: StudentLocation, accountKey: String, capacity: Int) -> StudentList {
        var list = self
        let placed = StudentList([location], accountKey: accountKey)
        list.entries.removeAll { $0.location.objectId == location.objectId }
        let place = list.entries.firstIndex { !location.isOlder(than: $0.location) } ?? list.entries.count
        list.entries.insert(contentsOf: placed.entries, at: place)
        if list.entries.count > max(capacity, count) { list.entries.removeLast(list.entries.count - max(capacity, count)) }
        return list
    }

    /// Whether the list shows the account's pin older than `pin`, or not at all: placing `pin`
    /// would make it newer.
    func holdsOlder(than pin: StudentLocation, ofAccount key: String) -> Bool {
        newestLocation(ofAccount: key).map { $0.isOlder(than: pin) } ?? true
    }
}

extension StudentLocation {
    /// Whether this was updated before `other` (a location never updated counts as the oldest).
    func isOlder(than other: StudentLocation) -> Bool {
        (updatedAt ?? .distantPast) < (other.updatedAt ?? .distantPast)
    }
}
