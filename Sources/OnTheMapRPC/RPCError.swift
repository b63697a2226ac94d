import OnTheMapModels

/// A JSON-RPC 2.0 error object: the standard codes and OnTheMap's application codes.
///
/// Application errors carry `data.retryable`, so a script knows whether trying again can help.
public struct RPCError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var code: Int
    /// What happened and what to do, for a person.
    public var message: String
    public var data: WireJSON?

    /// Creates an error.
    public init(code: Int, message: String, data: WireJSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(message) (\(code))" }

    /// Whether the daemon says trying again may succeed.
    public var isRetryable: Bool { data?["retryable"]?.boolValue ?? false }

    // MARK: Standard codes

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603

    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: parseErrorCode, message: "The request could not be read: \(detail).")
    }

    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: invalidRequestCode, message: "The request is not one the daemon understands: \(detail).")
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: methodNotFoundCode, message: "The daemon has no method \(method); `onthemap call rpc.discover` lists them.")
    }

    /// -32602 with `data.field` naming the offending parameter.
    public static func invalidParams(field: String, _ detail: String) -> RPCError {
        RPCError(
            code: invalidParamsCode, message: "\(field) \(detail).", data: .object([("field", .string(field))]))
    }

    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: internalErrorCode, message: detail)
    }

    // MARK: OnTheMap codes

    public static let notLoggedInCode = -32001
    public static let invalidCredentialsCode = -32002
    public static let upstreamUnreachableCode = -32003
    public static let upstreamErrorCode = -32004
    public static let placeNotFoundCode = -32005
    public static let pinExistsCode = -32006
    public static let sessionExpiredCode = -32007
    public static let invalidURLCode = -32008
    /// Too many attempts upstream (HTTP 429); `data.retryAfter` holds the seconds to wait, when known.
    public static let rateLimitedCode = -32009

    /// An application error; `extra` members are added to `data` after `retryable`.
    public static func application(_ code: Int, _ message: String, retryable: Bool, extra: [(String, WireJSON)] = [])
        -> RPCError
    {
        RPCError(code: code, message: message, data: .object([("retryable", .bool(retryable))] + extra))
    }

    /// The connection came from another user than the daemon's, and was closed.
    public static let refusedPeerCode = -32010

    /// Sent to a client of another user before its connection is closed. No advice to start a
    /// daemon: this one is running, and the client's way to its own socket (a flag, a variable, an
    /// editor's setting) is the client's to name (`onthemap` says it as for a socket it may not open).
    public static func refused(ownUID: UInt32) -> RPCError {
        application(
            refusedPeerCode,
            "This onthemapd belongs to another user (uid \(ownUID)) and serves only them: use your own onthemapd's socket.",
            retryable: false)
    }

    public static let notLoggedIn = application(
        notLoggedInCode, "Not logged in: run `onthemap login` first.", retryable: false)
}
