import OnTheMapModels

/// What one line from a client holds, after JSON-RPC validation.
public enum RPCIncoming: Sendable {
    /// One request (or notification).
    case single(Result<RPCRequest, RPCError>)
    /// A non-empty batch; each element validated on its own.
    case batch([Result<RPCRequest, RPCError>])
    /// A line that gets one error with `"id": null`: unparsable JSON, or an empty batch.
    case failure(RPCError)

    /// Parses and validates one line (without its newline), in one pass: the request's members are
    /// read as the types JSON-RPC 2.0 gives them, and only a member of the wrong type costs a second
    /// try (each miss is a thrown `DecodingError`, which is most of what reading a line costs).
    public static func parse(_ line: some Collection<UInt8>) -> RPCIncoming {
        guard let read = try? WireCoding.decode(Line.self, from: line) else {
            return .failure(.parseError("the line is not valid JSON"))
        }
        return read.incoming
    }

    private struct Line: Decodable {
        var incoming: RPCIncoming

        init(from decoder: any Decoder) throws {
            if let request = RPCIncoming.request(in: decoder) {
                incoming = .single(request)
            } else if var elements = try? decoder.unkeyedContainer() {
                var requests: [Result<RPCRequest, RPCError>] = []
                while !elements.isAtEnd { requests.append(try elements.decode(Element.self).request) }
                incoming = requests.isEmpty ? .failure(.invalidRequest("an empty batch")) : .batch(requests)
            } else {
                incoming = .single(.failure(notAnObject))
            }
        }
    }

    /// One element of a batch.
    private struct Element: Decodable {
        var request: Result<RPCRequest, RPCError>

        init(from decoder: any Decoder) throws {
            request = RPCIncoming.request(in: decoder) ?? .failure(notAnObject)
        }
    }

    private enum Member: String, CodingKey {
        case jsonrpc, id, method, params
    }

    private static let notAnObject = RPCError.invalidRequest("a request must be a JSON object")

    /// The request object at `decoder` checked against the rules of JSON-RPC 2.0; nil when the
    /// value is not an object.
    private static func request(in decoder: any Decoder) -> Result<RPCRequest, RPCError>? {
        guard let members = try? decoder.container(keyedBy: Member.self) else { return nil }
        guard (try? members.decode(String.self, forKey: .jsonrpc)) == "2.0" else {
            return .failure(.invalidRequest(#"the member "jsonrpc" must be exactly "2.0""#))
        }
        var id: RPCID?
        if members.contains(.id) {
            guard let valid = try? members.decode(RPCID.self, forKey: .id) else {
                return .failure(.invalidRequest("id must be a string, a number or null"))
            }
            id = valid
        }
        guard let method = try? members.decode(String.self, forKey: .method) else {
            return .failure(.invalidRequest(#"the member "method" must be a string"#))
        }
        // Emacs's jsonrpc.el sends `"params": null` for a call without params: the same as none.
        let params = try? members.decodeIfPresent(WireJSON.self, forKey: .params)
        switch params {
        case nil, .object?, .array?: break
        default: return .failure(.invalidRequest("params must be an object or an array"))
        }
        return .success(RPCRequest(id: id, method: method, params: params))
    }
}
