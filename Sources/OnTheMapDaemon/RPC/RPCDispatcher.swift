import Logging
import OnTheMapModels
import OnTheMapRPC

/// Turns one line from a client into the line to send back (nil: nothing to send), following
/// JSON-RPC 2.0: notifications get no reply, batches get an array, errors get `"id": null` when the
/// id could not be read. The one place results and errors become bytes.
struct RPCDispatcher: Sendable {
    /// The most requests one batch may hold.
    static let maxBatchRequests = 256
    /// The most bytes a batch's answers may add up to; the whole answer is built before it is sent.
    static let maxBatchReplyBytes = 8 * 1024 * 1024

    let daemon: Daemon
    let logger: Logger

    /// The reply line's bytes, without the newline.
    func respond(to line: some Collection<UInt8>, connection: ConnectionSubscription) async -> [UInt8]? {
        switch RPCIncoming.parse(line) {
        case .failure(let error):
            return Self.line(id: .null, .failure(error))
        case .single(let request):
            return await answer(request, connection: connection)
        case .batch(let requests):
            // Bounded both ways: a 0.9 MiB line of 20,000 `students` once built a 521 MB answer.
            guard requests.count <= Self.maxBatchRequests else {
                let error = RPCError.invalidRequest(
                    "a batch of \(requests.count) requests; at most \(Self.maxBatchRequests) are answered in one batch")
                return Self.line(id: .null, .failure(error))
            }
            var replies: [[UInt8]] = []
            var replyBytes = 0
            // One after the other: a connection has one request at work at a time, so a batch takes
            // its turns with other clients' requests rather than all the daemon's threads.
            for request in requests {
                guard let reply = await answer(request, connection: connection) else { continue }
                replyBytes += reply.count
                guard replyBytes <= Self.maxBatchReplyBytes else {
                    let error = RPCError.invalidRequest(
                        "the batch's answers pass \(Self.maxBatchReplyBytes / (1024 * 1024)) MiB; send fewer or smaller requests (requests before this point were carried out)")
                    return Self.line(id: .null, .failure(error))
                }
                replies.append(reply)
            }
            return replies.isEmpty ? nil : Array("[".utf8) + replies.joined(separator: ",".utf8) + Array("]".utf8)
        }
    }

    private func answer(_ parsed: Result<RPCRequest, RPCError>, connection: ConnectionSubscription) async -> [UInt8]? {
        let request: RPCRequest
        switch parsed {
        case .failure(let error): return Self.line(id: .null, .failure(error))
        case .success(let valid): request = valid
        }
        let result: Result<RPCResult, RPCError>
        if let handle = MethodRegistry.byName[request.method] {
            do {
                result = .success(try await handle(request.params, daemon, connection))
            } catch is ClientWork.ClientGone {
                // Work its client had left by its turn was dropped (`ClientWork`): no one to
                // answer, and nothing went wrong.
                return nil
            } catch {
                let rpcError = RPCError.from(error)
                if rpcError.code == RPCError.internalErrorCode {
                    logger.error("method failed", metadata: ["method": "\(request.method)", "error": "\(error)"])
                }
                result = .failure(rpcError)
            }
        } else {
            result = .failure(.methodNotFound(request.method))
        }
        guard let id = request.id else { return nil }
        return Self.line(id: id, result)
    }

    /// The response line for `id`: the result or the error, encoded through `WireCoding`.
    static func line(id: RPCID, _ result: Result<RPCResult, RPCError>) -> [UInt8] {
        do {
            switch result {
            case .success(.value(let value)):
                return try WireCoding.encode(RPCResponse(id: id, outcome: .success(value)))
            case .success(.encoded(let bytes)):
                // The keys are sorted, so `result` is the last member: the envelope of a placeholder
                // result, `{"id":…,"jsonrpc":"2.0","result":0}`, without its `0}`, then the result.
                var line = try WireCoding.encode(RPCResponse(id: id, outcome: .success(0)))
                line.removeLast(2)
                line += bytes
                line.append(UInt8(ascii: "}"))
                return line
            case .failure(let error):
                return try WireCoding.encode(RPCResponse(id: id, error: error))
            }
        } catch {
            // Only a value JSON cannot hold (a number that is not finite) fails to encode.
            let failure = RPCError.internalError("the daemon could not write its answer (\(error)); its log has details")
            return (try? WireCoding.encode(RPCResponse(id: id, error: failure))) ?? []
        }
    }
}
