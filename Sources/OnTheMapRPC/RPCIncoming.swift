import OnTheMapModels

/// What one line from a client holds, after JSON-RPC validation.
public enum RPCIncoming: Sendable {
    /// One request (or notification).
    case single(Result<RPCRequest, RPCError>)
    /// A non-empty batch; each element validated on its own.
    case batch([Result<RPCRequest, RPCError>])
    /// A line that gets one error with `"id": null`: unparsable JSON, or an empty batch.
    case failure(RPCError)

    /// Parses and validates one line (without its newline).
    public static func parse(_ line: some Collection<UInt8>) -> RPCIncoming {
        guard let value = try? WireCoding.decode(WireJSON.self, from: line) else {
            return .failure(.parseError("the line is not valid JSON"))
        }
        if case .array(let elements) = value {
            if elements.isEmpty { return .failure(.invalidRequest("an empty batch")) }
            return .batch(elements.map(validate))
        }
        return .single(validate(value))
    }

    /// Checks the request object rules of JSON-RPC 2.0.
    static func validate(_ value: WireJSON) -> Result<RPCRequest, RPCError> {
        guard case .object = value else {
            return .failure(.invalidRequest("a request must be a JSON object"))
        }
        guard value["jsonrpc"]?.stringValue == "2.0" else {
            return .failure(.invalidRequest(#"the member "jsonrpc" must be exactly "2.0""#))
        }
        var id: RPCID?
        if let idValue = value["id"] {
            guard let valid = RPCID(idValue) else {
                return .failure(.invalidRequest("id must be a string, a number or null"))
            }
            id = valid
        }
        guard let method = value["method"]?.stringValue else {
            return .failure(.invalidRequest(#"the member "method" must be a string"#))
        }
        var params = value["params"]
        switch params {
        case nil, .object?, .array?: break
        // Emacs's jsonrpc.el sends `"params": null` for a call without params: the same as none.
        case .null?: params = nil
        default: return .failure(.invalidRequest("params must be an object or an array"))
        }
        return .success(RPCRequest(id: id, method: method, params: params))
    }
}
