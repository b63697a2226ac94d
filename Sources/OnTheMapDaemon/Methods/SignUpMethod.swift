import OnTheMapAPI
import OnTheMapRPC

/// `signUp` (`SignUpParams`): the server's sign-up page, read from its web page when asked (a person
/// asks once, when they need an account: nothing is kept).
enum SignUpMethod: RPCMethod {
    static func answer(_ request: SignUpParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(SignUpResult(url: try await daemon.api.signUpURL()))
    }
}
