import OnTheMapModels
import OnTheMapRPC

/// `logout` → ends the upstream session if reachable; always forgets it locally.
enum LogoutMethod: RPCMethod {
    static let name = "logout"
    static let summary = "End the session upstream (XSRF) and forget it, the account and the cached students; succeeds offline and says so in `upstream`."
    static let params: [(String, String, Bool, String)] = []

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        _ = try RPCParams(params, allowed: allowedParams)
        return .value(await daemon.logout())
    }
}
