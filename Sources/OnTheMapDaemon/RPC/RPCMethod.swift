import OnTheMapModels
import OnTheMapRPC

/// What a method answers: its typed result, encoded as it is sent, or a result encoded already (a
/// list written around the pins the cache encoded once: `PinListAnswer`).
enum RPCResult: Sendable {
    case value(any Encodable & Sendable)
    case encoded([UInt8])

    /// A declared result, as the daemon sends it.
    static func result(_ result: some RPCResultType) -> RPCResult { .value(result) }
}

/// One RPC method as the daemon serves it: the declaration of its params and result (in
/// `OnTheMapRPC`) and a handler that carries a decoded request out.
///
/// Handlers are thin: the declaration reads and checks the params; the handler calls the daemon.
protocol RPCMethod: Sendable {
    associatedtype Request: RPCRequestType
    /// Carries out a request whose params are read and checked already.
    static func answer(_ request: Request, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult

    // Requirements (with the defaults below), not extension members only: the registry calls them on
    // `any RPCMethod.Type`.
    static var name: String { get }
    /// The declaration, for `rpc.discover`.
    static var declaration: any RPCRequestType.Type { get }
    /// Decodes the params (-32602 naming the field when they are wrong) and answers.
    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult
}

extension RPCMethod {
    static var name: String { Request.method }

    static var declaration: any RPCRequestType.Type { Request.self }

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        try await answer(try Request(params: params), daemon: daemon, connection: connection)
    }
}
