import Foundation
import Hummingbird

/// Writes one access-log line per request, once its response has been sent.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let log: AccessLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = ContinuousClock.now
        var entry = AccessLog.Entry(
            time: AccessLog.timestamp(), remote: context.clientAddress, method: request.method.rawValue,
            path: request.uri.path, route: nil, status: 0, durationMs: 0, bytes: nil,
            userAgent: request.headers[.userAgent])
        do {
            let response = try await next(request, context)
            // Logged once the handler has answered: bodies here are built in memory, so sending them
            // adds little, and the line must not wait on a slow client.
            entry.status = Int(response.status.code)
            entry.bytes = response.body.contentLength ?? response.headers[.contentLength].flatMap { Int($0) }
            entry.route = context.endpointPath
            entry.durationMs = Self.milliseconds(ContinuousClock.now - start)
            log.write(entry)
            return response
        } catch {
            entry.status = Int((error as? any HTTPResponseError)?.status.code ?? 500)
            entry.route = context.endpointPath
            entry.durationMs = Self.milliseconds(ContinuousClock.now - start)
            log.write(entry)
            throw error
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
