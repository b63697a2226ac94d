import OnTheMapModels

/// One JSON-RPC 2.0 request; a notification when `id` is absent.
public struct RPCRequest: Sendable {
    public var id: RPCID?
    public var method: String
    /// Named params (an object), or nil when none were given.
    public var params: WireJSON?

    /// Creates a request.
    public init(id: RPCID?, method: String, params: WireJSON? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// Whether no reply is expected.
    public var isNotification: Bool { id == nil }

    /// `{"jsonrpc":"2.0","id":…,"method":…,"params":…}` on one line, without the newline.
    public var serialized: String {
        var line = self.line
        line.removeLast()
        return String(decoding: line, as: UTF8.self)
    }

    /// The request as the client sends it: one line of JSON and its newline. Written member by
    /// member rather than through a `WireJSON.object`, whose array of tuples the runtime would
    /// instantiate from a mangled name: a measurable share of `onthemap status`'s run.
    public var line: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        output.append(contentsOf: #"{"jsonrpc":"2.0""#.utf8)
        if let id {
            output.append(contentsOf: #","id":"#.utf8)
            id.wireJSON.write(into: &output)
        }
        output.append(contentsOf: #","method":"#.utf8)
        WireJSON.string(method).write(into: &output)
        if let params {
            output.append(contentsOf: #","params":"#.utf8)
            params.write(into: &output)
        }
        output.append(contentsOf: "}\n".utf8)
        return output
    }
}

/// A response: the request's id with a result or an error.
public struct RPCResponse: Sendable {
    public var id: RPCID
    public var outcome: Result<WireJSON, RPCError>

    /// Creates a response.
    public init(id: RPCID, outcome: Result<WireJSON, RPCError>) {
        self.id = id
        self.outcome = outcome
    }

    /// The response as one line of JSON, without the newline.
    public var serialized: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The same line as UTF-8.
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        switch outcome {
        case .success(let result):
            WireJSON.object([("jsonrpc", .string("2.0")), ("id", id.wireJSON), ("result", result)]).write(into: &output)
        case .failure(let error):
            WireJSON.object([("jsonrpc", .string("2.0")), ("id", id.wireJSON), ("error", error.wireJSON)]).write(into: &output)
        }
        return output
    }

    /// A response around a result already serialized (the stored `students` answer, a large list
    /// written from the cache's bytes), spliced in as is.
    public static func bytes(id: RPCID, resultJSON: some Collection<UInt8>) -> [UInt8] {
        let envelope = envelope(id: id)
        var output: [UInt8] = []
        output.reserveCapacity(envelope.prefix.utf8.count + resultJSON.count + 1)
        output.append(contentsOf: envelope.prefix.utf8)
        output.append(contentsOf: resultJSON)
        output.append(contentsOf: envelope.suffix.utf8)
        return output
    }

    /// What goes around a serialized result: `{"jsonrpc":"2.0","id":…,"result":` and `}`.
    public static func envelope(id: RPCID) -> (prefix: String, suffix: String) {
        // An integer id, as every client here sends, written without building a JSON value first.
        if case .integer(let number) = id { return envelope(idJSON: String(number)) }
        return envelope(idJSON: id.wireJSON.serialized)
    }

    /// The same, around an id already written as JSON (the daemon's fast path echoes its bytes).
    public static func envelope(idJSON: String) -> (prefix: String, suffix: String) {
        (#"{"jsonrpc":"2.0","id":"# + idJSON + #","result":"#, "}")
    }

    /// Parses a response line, as a client reads it.
    public init?(parsing value: WireJSON) {
        guard value["jsonrpc"]?.stringValue == "2.0", let idValue = value["id"], let id = RPCID(idValue) else {
            return nil
        }
        if let error = value["error"], let rpcError = RPCError(wireJSON: error) {
            self.init(id: id, outcome: .failure(rpcError))
        } else if let result = value["result"] {
            self.init(id: id, outcome: .success(result))
        } else {
            return nil
        }
    }
}

/// A notification from the daemon to a subscribed connection.
public struct RPCNotification: Sendable {
    public var method: String
    public var params: WireJSON

    /// Creates a notification.
    public init(method: String, params: WireJSON) {
        self.method = method
        self.params = params
    }

    public var serialized: String {
        WireJSON.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]).serialized
    }
}
