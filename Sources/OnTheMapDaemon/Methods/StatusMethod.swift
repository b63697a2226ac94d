import OnTheMapModels
import OnTheMapRPC

/// `status` → version, API, login, cache state, what is in flight, uptime. Needs no login.
enum StatusMethod: RPCMethod {
    static let name = "status"
    static let summary = "The daemon's state: version, apiURL, loggedIn, account, students {count, unplaceable, refreshedAt, stale, lastError}, myPin, busy, uptime."
    static let params: [(String, String, Bool, String)] = []

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        _ = try RPCParams(params, allowed: allowedParams)
        return .serialized(await daemon.statusResult())
    }
}
