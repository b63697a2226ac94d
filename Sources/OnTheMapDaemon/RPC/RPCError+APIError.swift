import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC

extension RPCError {
    /// The one place API failures become JSON-RPC errors. A 401 never gets here: `Daemon.upstream`
    /// turns it into a logout and -32007.
    init(_ error: APIError) {
        let code: Int
        switch error.kind {
        case .invalidCredentials: code = RPCError.invalidCredentialsCode
        case .unreachable: code = RPCError.upstreamUnreachableCode
        case .rateLimited: code = RPCError.rateLimitedCode
        default: code = RPCError.upstreamErrorCode
        }
        var extra: [(String, OnTheMapModels.WireJSON)] = []
        if let status = error.status { extra.append(("httpStatus", .integer(status))) }
        if let retryAfter = error.retryAfter { extra.append(("retryAfter", .integer(retryAfter))) }
        self = .application(code, error.message, retryable: error.isRetryable, extra: extra)
    }

    /// A login whose account's names could not be read: `cause`'s code and data, its message after
    /// what that meant.
    static func profileUnread(_ cause: RPCError) -> RPCError {
        RPCError(
            code: cause.code, message: "Your account's name could not be read, so the login was not kept: \(cause.message)",
            data: cause.data)
    }

    /// Any error, as a handler's caller sees it: RPC and API errors keep their meaning; anything
    /// else is an internal error whose detail stays in the log.
    static func from(_ error: any Error) -> RPCError {
        switch error {
        case let error as RPCError: error
        case let error as APIError: RPCError(error)
        case let error as GeocoderError:
            .application(
                error.kind == .unreachable ? RPCError.upstreamUnreachableCode : RPCError.upstreamErrorCode,
                error.description, retryable: true)
        default: .internalError("the daemon failed to answer; its log has details")
        }
    }
}
