import Foundation
import OnTheMapAPI
import OnTheMapRPC

/// The session and account as `session.json` keeps them between runs (never the password).
struct SessionFile: Codable {
    var session: APISession
    var account: AccountInfo

    /// Reads a file written by `bytes()`; nil when it is not such a file.
    init?(fileContents data: Data) {
        guard let decoded = try? JSONDecoder().decode(SessionFile.self, from: data) else { return nil }
        self = decoded
    }

    init(session: APISession, account: AccountInfo) {
        self.session = session
        self.account = account
    }

    func bytes() throws -> Data { try JSONEncoder().encode(self) }
}
