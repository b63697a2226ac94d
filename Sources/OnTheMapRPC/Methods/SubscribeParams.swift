import OnTheMapModels

/// `subscribe {events?}`: the connection then receives `studentsChanged`, `sessionChanged`, `statusChanged`.
public struct SubscribeParams: RPCRequestType, Equatable {
    public typealias Response = SubscribeResult
    public static let method = "subscribe"
    public static let summary = "Receive notifications on this connection: studentsChanged, sessionChanged, statusChanged (events: students, session, status; default all)."

    public static let events = RPCParam<[RPCEvent]>("events", .array, "some of \"students\", \"session\", \"status\"") {
        params throws(RPCError) in
        guard let names = try params.stringArray("events") else { return nil }
        var events: [RPCEvent] = []
        for name in names {
            guard let event = RPCEvent(rawValue: name) else {
                throw .invalidParams(field: "events", "may only hold students, session and status")
            }
            events.append(event)
        }
        return events
    } write: { .array($0.map { .string($0.rawValue) }) }
    public static let parameters = [events.parameter]

    /// Nil: all of them.
    public var events: [RPCEvent]?

    public init(events: [RPCEvent]? = nil) {
        self.events = events
    }

    public init(reading params: RPCParams) throws(RPCError) {
        events = try params(Self.events)
    }

    public var params: WireJSON? {
        var writer = RPCParamsWriter()
        writer.add(Self.events, events)
        return writer.params
    }
}

/// `subscribe`'s and `unsubscribe`'s result: the events the connection now receives, in a fixed order.
public struct SubscribeResult: RPCResultType, Equatable {
    public var events: [RPCEvent]

    public init(events: some Sequence<RPCEvent>) {
        let chosen = Set(events)
        self.events = RPCEvent.allCases.filter(chosen.contains)
    }
}
