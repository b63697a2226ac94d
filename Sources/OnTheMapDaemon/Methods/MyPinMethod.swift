import OnTheMapModels
import OnTheMapRPC

/// `myPin` → `{pin: StudentLocation | null}`.
enum MyPinMethod: RPCMethod {
    static let name = "myPin"
    static let summary = "The logged-in user's own pin, or null."
    static let params: [(String, String, Bool, String)] = []

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        _ = try RPCParams(params, allowed: allowedParams)
        let pin = try await daemon.myPin()
        return .value(.object([("pin", pin?.wireJSON ?? .null)]))
    }
}
