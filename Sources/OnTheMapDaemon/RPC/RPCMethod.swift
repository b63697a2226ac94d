import OnTheMapModels
import OnTheMapRPC

/// What a method answers: a value, or JSON already serialized (the cached `students` answer), as
/// text or as UTF-8 bytes (a large `students` answer, which a `String` would validate and copy again).
enum RPCResult: Sendable {
    case value(WireJSON)
    case serialized(String)
    case bytes([UInt8])
}

/// Per-connection state a method may touch (subscriptions).
protocol ConnectionControl: Sendable {
    func subscribe(_ events: Set<DaemonEvent>) async
    func unsubscribe() async
}

/// One RPC method: its name, its documentation for `rpc.discover`, and its handler.
///
/// Handlers are thin: they read params and call the daemon.
protocol RPCMethod: Sendable {
    static var name: String { get }
    /// One line for `rpc.discover`.
    static var summary: String { get }
    /// `(name, JSON-schema type, required, description)` of each param.
    static var params: [(String, String, Bool, String)] { get }
    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult
}

extension RPCMethod {
    static var allowedParams: Set<String> { Set(params.map(\.0)) }
}

/// Every method the daemon serves, by name: built once at start-up.
enum MethodRegistry {
    static let methods: [any RPCMethod.Type] = [
        StatusMethod.self, LoginMethod.self, LogoutMethod.self, StudentsMethod.self, RefreshMethod.self,
        GeocodeMethod.self, MyPinMethod.self, PostPinMethod.self, SubscribeMethod.self, UnsubscribeMethod.self,
        MapMethod.self, ExportMapMethod.self, DiscoverMethod.self,
    ]

    static let byName: [String: any RPCMethod.Type] = Dictionary(uniqueKeysWithValues: methods.map { ($0.name, $0) })
}
