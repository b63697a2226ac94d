import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

import Glibc

/// The full-screen map's connections to the daemon: calls (map, geocode, refresh) on one, news
/// (`studentsChanged`, `sessionChanged`) on another that stays subscribed. When the daemon goes
/// away (a restart, a stop), both are dropped and opened again once it answers, as `watch` does:
/// the map waits instead of ending.
final class MapDaemonLink {
    private let global: GlobalOptions
    /// Opened again when the daemon closed it for being idle (`--idle-timeout`).
    private var calls: RPCConnection?
    /// Kept open by the daemon while it is subscribed; nil while the daemon is away.
    private(set) var events: RPCConnection?
    /// How long to wait before the next attempt to reach a daemon that went away.
    private(set) var backoff: Double = 0.25

    /// Connects and subscribes; the daemon must be there at the start (else exit 2, with the advice).
    init(global: GlobalOptions) throws {
        self.global = global
        try connect()
    }

    var isConnected: Bool { events != nil }

    /// Both connections, the news subscribed to.
    private func connect() throws {
        let calls = try global.connect()
        let events = try global.connect(timeout: nil)
        _ = try events.call(SubscribeParams(events: [.students, .session])).get()
        self.calls = calls
        self.events = events
        backoff = 0.25
    }

    /// Forgets both connections: the daemon went away.
    func drop() {
        calls = nil
        events = nil
    }

    /// One attempt to reach the daemon again; the error when it is still away (its message says how
    /// to start it). The wait before the next attempt doubles, up to 5 s.
    func reconnect() -> ClientError? {
        do {
            try connect()
            return nil
        } catch {
            drop()
            backoff = min(backoff * 2, 5)
            return error as? ClientError ?? ClientError(kind: .closed, message: "\(error)")
        }
    }

    /// A call on the calls' connection; when the daemon had closed it (idle for longer than its
    /// `--idle-timeout`), once more on a new connection. Each call here asks, none changes anything,
    /// so asking twice is safe. A `ClientError` means the daemon is away.
    func call<Params: RPCRequestType>(_ params: Params) throws -> Result<Params.Response, RPCError>
    where Params.Response: Decodable {
        if let calls {
            do {
                return try calls.call(params)
            } catch let error as ClientError where error.kind == .closed {}
        }
        let fresh = try global.connect()
        calls = fresh
        return try fresh.call(params)
    }

    /// The methods of the notifications waiting on the news connection, read until none is left;
    /// nil when the daemon closed it (it went away).
    func readEvents() -> [String]? {
        guard let events else { return nil }
        var methods: [String] = []
        repeat {
            guard let message = try? events.read(RPCReply<WireJSON>.self) else { return nil }
            if let method = message.method { methods.append(method) }
        } while events.hasBufferedLine
        return methods
    }
}
