import OnTheMapModels
import OnTheMapRPC

/// `subscribe {events?}`: the connection then receives `studentsChanged`, `sessionChanged`, `statusChanged`.
enum SubscribeMethod: RPCMethod {
    static let name = "subscribe"
    static let summary = "Receive notifications on this connection: studentsChanged, sessionChanged, statusChanged (events: students, session, status; default all)."
    static let params: [(String, String, Bool, String)] = [
        ("events", "array", false, "some of \"students\", \"session\", \"status\"")
    ]

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let reader = try RPCParams(params, allowed: allowedParams)
        var events = Set(DaemonEvent.allCases)
        if let names = try reader.stringArray("events") {
            events = []
            for name in names {
                guard let event = DaemonEvent(rawValue: name) else {
                    throw RPCError.invalidParams(field: "events", "may only hold students, session and status")
                }
                events.insert(event)
            }
        }
        await connection.subscribe(events)
        return .value(.object([("events", .array(DaemonEvent.allCases.filter(events.contains).map { .string($0.rawValue) }))]))
    }
}

/// `unsubscribe`: stops notifications on this connection.
enum UnsubscribeMethod: RPCMethod {
    static let name = "unsubscribe"
    static let summary = "Stop notifications on this connection."
    static let params: [(String, String, Bool, String)] = []

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        _ = try RPCParams(params, allowed: allowedParams)
        await connection.unsubscribe()
        return .value(.object([("events", .array([]))]))
    }
}
