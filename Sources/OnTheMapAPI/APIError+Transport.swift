import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import OnTheMapModels

extension APIError {
    /// Explains a failure to get any answer: refused, DNS, TLS or timeout.
    static func unreachable(_ error: any Error, baseURL: String) -> APIError {
        let reason: String
        switch error {
        case let error as HTTPClientError where error == .connectTimeout:
            reason = "the connection timed out"
        case let error as CancellingDeadline.Exceeded:
            reason = "it did not answer in time (no complete response within \(error.limit.components.seconds) s)"
        case let error as HTTPClientError where error == .readTimeout || error == .deadlineExceeded:
            reason = "it did not answer in time"
        case let error as HTTPClientError where error == .tlsHandshakeTimeout:
            reason = "the TLS handshake timed out"
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            reason = "it closed the connection"
        case let error as NIOConnectionError where error.dnsAError != nil || error.dnsAAAAError != nil:
            reason = "its host name could not be resolved (DNS)"
        case let error as NIOConnectionError:
            reason = error.connectionErrors.isEmpty ? "it could not be connected to" : "the connection was refused"
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            reason = "the connection was refused"
        case ChannelError.connectTimeout:
            reason = "the connection timed out"
        default:
            let typeName = String(reflecting: type(of: error))
            if typeName.contains("SSL") || typeName.contains("TLS") {
                reason = "the TLS handshake failed (\(error))"
            } else {
                reason = "\(error)"
            }
        }
        return APIError(
            .unreachable,
            "Cannot reach the OnTheMap API at \(baseURL): \(reason). Check the network and the API URL, then retry.")
    }

    /// How much of a server's own error text is quoted, in characters.
    static let maxQuoted = 300

    /// Explains a non-2xx answer, preferring the server's own `error` text.
    static func fromStatus(_ reply: Reply, purpose: RequestPurpose, baseURL: String) -> APIError {
        // Quoted to people and in logs: cleaned (`DisplayText`) and cut to a sentence's length.
        let written = (try? WireCoding.decoder().decode(
            APIErrorBody.self, from: Data(XSSIPrefix.strip(reply.body.readableBytesView))))?.error
        let serverMessage = written.map { DisplayText.clean($0.count > maxQuoted ? String($0.prefix(maxQuoted - 1)) + "…" : $0) }
        let status = reply.status
        func message(_ fallback: String) -> String {
            guard let serverMessage, !serverMessage.isEmpty else { return fallback }
            return serverMessage
        }
        switch status {
        case 400, 413, 422:
            return APIError(.badRequest, message("The server refused the request as malformed (HTTP \(status))."), status: status)
        case 401:
            return APIError(.unauthorized, message("The session is missing or has expired: log in again."), status: status)
        case 403 where purpose == .login:
            return APIError(.invalidCredentials, message("Account not found or invalid credentials."), status: status)
        case 403:
            return APIError(.forbidden, message("The server does not allow this with the current session."), status: status)
        case 423 where purpose == .login:
            // onthemap-server: the password was right, but an operator disabled the account.
            return APIError(.forbidden, message("This account is disabled; ask the server's operator."), status: status)
        case 404:
            return APIError(.notFound, message("Not found."), status: status)
        case 429:
            // The wait once, in words; the server's own text may say it again in seconds.
            let retryAfter = reply.headers.first(name: "Retry-After").flatMap { Int($0.trimmingWhitespace()) }
            let text = retryAfter.map { "Too many attempts: try again in \(WaitInWords.describe(seconds: $0))." }
                ?? message("Too many attempts: try again later.")
            return APIError(.rateLimited, text, status: status, retryAfter: retryAfter)
        case 500...599:
            // The server's own words when it gave some, said once, with its advice; else ours.
            let said = serverMessage.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            let advice = said?.lowercased().contains("try again") == true ? "" : " Try again later."
            return APIError(
                .upstreamError,
                "The OnTheMap API at \(baseURL) failed (HTTP \(status))\(said.map { ": \($0)" } ?? "").\(advice)",
                status: status)
        default:
            return APIError(
                .malformedResponse, "The OnTheMap API at \(baseURL) answered HTTP \(status) unexpectedly.", status: status)
        }
    }
}
