import AsyncHTTPClient
import FoundationEssentials
import Logging
import NIOCore
import NIOHTTP1
import OnTheMapModels

/// What a request is for: decides how an error status is explained.
enum RequestPurpose {
    case login, session, read, write
}

/// A response read whole, within the size limit.
struct Reply {
    var status: Int
    var headers: HTTPHeaders
    var body: ByteBuffer

    /// Value of a cookie set by the response, if any.
    func cookie(named name: String) -> String? {
        for header in headers[canonicalForm: "Set-Cookie"] {
            let pair = header.split(separator: ";", maxSplits: 1).first ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingWhitespace() == name {
                return parts[1].trimmingWhitespace()
            }
        }
        return nil
    }
}

extension OnTheMapAPIClient {
    /// Sends one request and returns the reply if its status is 2xx (or in `accepted`, such as a 304
    /// to a conditional GET); otherwise throws the matching `APIError`.
    func send(
        _ method: HTTPMethod,
        _ path: String,
        query: [(String, String)] = [],
        headers: [(String, String)] = [],
        body: (any Encodable & Sendable)? = nil,
        purpose: RequestPurpose,
        alsoAccepting accepted: Set<Int> = []
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url(path, query: query))
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try WireCoding.encode(body)))
        }

        // The path and status only: query values, headers and bodies may carry secrets.
        logger.debug("request", metadata: ["method": "\(method.rawValue)", "path": "\(path)"])
        let reply: Reply
        do {
            // The deadline covers the whole response, body included: AsyncHTTPClient's own timeout
            // ends when the head arrives, and a server dripping a byte a second never trips the read
            // timeout.
            reply = try await CancellingDeadline.within(configuration.requestTimeout) { [httpClient, configuration, logger, request] in
                let response = try await httpClient.execute(request, timeout: .init(configuration.requestTimeout), logger: logger)
                let body = try await response.body.collect(upTo: configuration.maxResponseBytes)
                return Reply(status: Int(response.status.code), headers: response.headers, body: body)
            }
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw APIError(
                .malformedResponse,
                "The server at \(configuration.shownURL) sent a response larger than \(configuration.maxResponseBytes) bytes.")
        } catch {
            throw APIError.unreachable(error, baseURL: configuration.shownURL)
        }
        logger.debug("response", metadata: ["path": "\(path)", "status": "\(reply.status)"])
        guard (200..<300).contains(reply.status) || accepted.contains(reply.status) else {
            throw APIError.fromStatus(reply, purpose: purpose, baseURL: configuration.shownURL)
        }
        return reply
    }

    /// Decodes a 2xx body, stripping the XSSI prefix if present.
    func decode<T: Decodable>(_ reply: Reply) throws -> T {
        let bytes = reply.body.readableBytesView
        do {
            return try WireCoding.decoder().decode(T.self, from: Data(XSSIPrefix.strip(bytes)))
        } catch {
            throw APIError(
                .malformedResponse,
                "The server at \(configuration.shownURL) answered with something that is not the OnTheMap API's format (\(Self.summary(of: error))).",
                status: reply.status)
        }
    }

    func url(_ path: String, query: [(String, String)]) -> String {
        var url = configuration.baseURL + path
        if !query.isEmpty {
            var components = URLComponents()
            components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
            url += "?" + (components.percentEncodedQuery ?? "")
        }
        return url
    }

    static func summary(of error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(let type, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not \(type)"
        case DecodingError.valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is null"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "not JSON" : context.debugDescription
        default: "undecodable"
        }
    }
}
