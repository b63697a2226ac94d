import OnTheMapModels

/// A JSON-RPC 2.0 error object: the standard codes and OnTheMap's application codes.
///
/// Application errors carry `data.retryable`, so a script knows whether trying again can help.
public struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
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

    var wireJSON: WireJSON {
        var members: [(String, WireJSON)] = [("code", .integer(code)), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(members)
    }

    init?(wireJSON: WireJSON) {
        guard let code = wireJSON["code"]?.intValue, let message = wireJSON["message"]?.stringValue else { return nil }
        self.init(code: code, message: message, data: wireJSON["data"])
    }

    // MARK: Standard codes

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603

    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: parseErrorCode, message: "Parse error: \(detail)")
    }

    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: invalidRequestCode, message: "Invalid request: \(detail)")
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: methodNotFoundCode, message: "Method not found: \(method). `rpc.discover` lists the methods.")
    }

    /// -32602 with `data.field` naming the offending parameter.
    public static func invalidParams(field: String, _ detail: String) -> RPCError {
        RPCError(
            code: invalidParamsCode, message: "Invalid params: \(field) \(detail).", data: .object([("field", .string(field))]))
    }

    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: internalErrorCode, message: "Internal error: \(detail)")
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

    public static let notLoggedIn = application(
        notLoggedInCode, "Not logged in: run `onthemap login` first.", retryable: false)
}
