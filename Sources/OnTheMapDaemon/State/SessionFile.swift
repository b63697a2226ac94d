import FoundationEssentials
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC

/// The session and account as `session.json` keeps them between runs (never the password), written
/// and read through `WireCoding`.
struct SessionFile: Codable {
    var session: APISession
    var account: AccountInfo
    /// The API the session belongs to (`--api-url`): a daemon started against another one does not
    /// send it there. Absent in files written before it was kept.
    var apiURL: String?

    /// Reads a file written by `bytes()`; nil when it is not such a file.
    init?(fileContents bytes: some Collection<UInt8>) {
        guard let read = try? WireCoding.decode(SessionFile.self, from: bytes) else { return nil }
        self = read
    }

    init(session: APISession, account: AccountInfo, apiURL: String) {
        self.session = session
        self.account = account
        self.apiURL = apiURL
    }

    func bytes() throws -> [UInt8] { try WireCoding.encode(self) }
}
