/// What a subscribed connection can be told about; each has its notification.
public enum RPCEvent: String, CaseIterable, Sendable, Codable {
    case students, session, status

    /// The notification's method name: `studentsChanged`, `sessionChanged`, `statusChanged`.
    public var method: String { "\(rawValue)Changed" }
}
