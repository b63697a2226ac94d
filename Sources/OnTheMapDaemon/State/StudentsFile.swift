import FoundationEssentials
import OnTheMapAPI
import OnTheMapModels

/// The student list as `students.json` keeps it between runs, written and read through
/// `WireCoding`: `{"locations":[…],"refreshedAt":"…","skipped":N,"skippedWhy":…,"tags":{…}}`.
struct StudentsFile: Codable, Equatable {
    var locations: [StudentLocation]
    var refreshedAt: Date
    /// The list's tags, for the first refresh after a restart (a file with none is fetched whole).
    var tags: ListTags?
    var skipped: Int
    var skippedWhy: String?

    /// Reads a file written by `bytes()`; nil when it is not such a file (one from another version,
    /// or damaged: then the next refresh fetches the list again).
    init?(fileContents bytes: some Collection<UInt8>) {
        guard let read = try? WireCoding.decode(StudentsFile.self, from: bytes) else { return nil }
        self = read
    }

    init(locations: [StudentLocation], refreshedAt: Date, tags: ListTags?, skipped: Int, skippedWhy: String?) {
        self.locations = locations
        self.refreshedAt = refreshedAt
        self.tags = tags
        self.skipped = skipped
        self.skippedWhy = skippedWhy
    }

    func bytes() throws -> [UInt8] { try WireCoding.encode(self) }
}
