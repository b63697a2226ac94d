import Hummingbird

/// Records every request the router answers (`RequestRecorder`): outermost, so it sees each response
/// in its final form, after `APIErrorMiddleware` turned errors into bodies.
///
/// Recorded once the handler has answered: bodies here are built in memory, so sending them adds
/// little, and the record must not wait on a slow client.
struct RequestRecordingMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let recorder: RequestRecorder

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let recording = recorder.start(
            method: request.method, path: request.uri.path, remote: context.clientAddress,
            userAgent: request.headers[.userAgent])
        do {
            let response = try await next(request, context)
            recorder.finish(
                recording, route: context.endpointPath, status: Int(response.status.code),
                bytes: response.body.contentLength ?? response.headers[.contentLength].flatMap { Int($0) })
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            recorder.finish(recording, route: context.endpointPath, status: Int(status), bytes: nil, thrown: true)
            throw error
        }
    }
}
