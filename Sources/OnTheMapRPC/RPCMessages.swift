import OnTheMapModels

/// One JSON-RPC 2.0 request; a notification when `id` is absent.
///
/// Its params are already a `WireJSON` value, so the whole request is one and is written by
/// `WireJSON`'s writer, members in the order JSON-RPC 2.0 lists them. Not through `JSONEncoder`:
/// a client process that sends one request would pay that encoder's first-use set-up (type metadata
/// and conformance look-ups, a tenth of `onthemap status`) to write one short line.
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

    /// The request as JSON: `jsonrpc`, `id` (when not a notification), `method`, `params` (when given).
    public var wireJSON: WireJSON {
        var members: [(String, WireJSON)] = [("jsonrpc", .string("2.0"))]
        if let id { members.append(("id", id.wireJSON)) }
        members.append(("method", .string(method)))
        if let params { members.append(("params", params)) }
        return .object(members)
    }

    /// The request as a client sends it: one line of JSON and its newline.
    public var line: [UInt8] {
        var bytes: [UInt8] = []
        wireJSON.write(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

/// A response as the daemon writes it: the request's id with a result or an error.
public struct RPCResponse: Sendable, Encodable {
    public var id: RPCID
    public var outcome: Result<any Encodable & Sendable, RPCError>

    /// Creates a response.
    public init(id: RPCID, outcome: Result<any Encodable & Sendable, RPCError>) {
        self.id = id
        self.outcome = outcome
    }

    /// An error response.
    public init(id: RPCID, error: RPCError) {
        self.init(id: id, outcome: .failure(error))
    }

    private enum CodingKeys: String, CodingKey {
        case jsonrpc, id, result, error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        switch outcome {
        case .success(let result): try container.encode(result, forKey: .result)
        case .failure(let error): try container.encode(error, forKey: .error)
        }
    }
}

/// A notification from the daemon to a subscribed connection.
public struct RPCNotification: Sendable, Encodable {
    public var method: String
    public var params: any Encodable & Sendable

    /// Creates a notification.
    public init(method: String, params: any Encodable & Sendable) {
        self.method = method
        self.params = params
    }

    private enum CodingKeys: String, CodingKey {
        case jsonrpc, method, params
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        try container.encode(method, forKey: .method)
        try container.encode(params, forKey: .params)
    }
}

/// A line from the daemon as a client reads it, with a result of the type it expects: a response
/// (`id` with `result` or `error`), or a notification (`method`, and `params` when they are of that
/// type too: a reader expecting one kind of answer skips notifications of another kind).
public struct RPCReply<Result: Decodable>: Decodable {
    public var id: RPCID?
    /// Set on a notification.
    public var method: String?
    public var result: Result?
    public var error: RPCError?
    /// A notification's params, when they read as `Result`.
    public var params: Result?

    private enum CodingKeys: String, CodingKey {
        case id, method, result, error, params
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(RPCID.self, forKey: .id)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        result = try container.decodeIfPresent(Result.self, forKey: .result)
        error = try container.decodeIfPresent(RPCError.self, forKey: .error)
        params = method == nil ? nil : try? container.decodeIfPresent(Result.self, forKey: .params)
    }

    /// Whether the line is a notification rather than a response.
    public var isNotification: Bool { method != nil && id == nil }

    /// The result or the error.
    public func outcome() throws(RPCError) -> Result {
        if let error { throw error }
        guard let result else { throw RPCError.internalError("the answer has neither a result nor an error") }
        return result
    }
}
