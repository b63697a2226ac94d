import OnTheMapModels
import OnTheMapRPC

/// `login {username, password}` or `{facebookAccessToken}` → the account.
enum LoginMethod: RPCMethod {
    static let name = "login"
    static let summary = "Log in with Udacity credentials or a Facebook access token; answers the account."
    static let params: [(String, String, Bool, String)] = [
        ("username", "string", false, "Udacity email"),
        ("password", "string", false, "Udacity password (never stored, never logged)"),
        ("facebookAccessToken", "string", false, "instead of username and password"),
    ]

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let reader = try RPCParams(params, allowed: allowedParams)
        let request: LoginRequest
        if let token = try reader.string("facebookAccessToken") {
            guard try reader.string("username") == nil, try reader.string("password") == nil else {
                throw RPCError.invalidParams(field: "facebookAccessToken", "cannot be combined with username and password")
            }
            request = .facebook(accessToken: token)
        } else {
            request = .udacity(username: try reader.requiredString("username"), password: try reader.requiredString("password"))
        }
        return .value(try await daemon.login(request).wireJSON)
    }
}
