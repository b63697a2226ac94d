import OnTheMapModels

/// One param of a method, declared once: its description for `rpc.discover`, how the daemon reads it
/// (with the checks that answer -32602 naming it), and how a client writes it.
public struct RPCParam<Value: Sendable>: Sendable {
    public let parameter: RPCParameter
    /// Reads the value, nil when absent (or null); throws -32602 for a wrong type or range.
    let read: @Sendable (RPCParams) throws(RPCError) -> Value?
    let write: @Sendable (Value) -> WireJSON

    /// Declares a param with its own reading and writing (nested objects, one-of values).
    public init(
        _ name: String, _ kind: RPCParameter.Kind, required: Bool = false, _ summary: String,
        read: @escaping @Sendable (RPCParams) throws(RPCError) -> Value?, write: @escaping @Sendable (Value) -> WireJSON
    ) {
        parameter = RPCParameter(name: name, kind: kind, required: required, summary: summary)
        self.read = read
        self.write = write
    }

    public var name: String { parameter.name }
}

extension RPCParam where Value == String {
    /// The longest string param read, unless its declaration says less: every string is bounded, so
    /// no request makes the daemon work through text of any length (docs/PROTOCOL.md, "Limits").
    public static var defaultMaximumBytes: Int { 2048 }

    /// A string of at most `maximumBytes` UTF-8 bytes; a required one must not be blank.
    public static func string(
        _ name: String, required: Bool = false, maximumBytes: Int = defaultMaximumBytes, _ summary: String
    ) -> Self {
        Self(name, .string, required: required, summary) { reader throws(RPCError) in
            let text = try required ? reader.requiredString(name) : reader.string(name)
            if let text, text.utf8.count > maximumBytes {
                throw .invalidParams(field: name, "is too long (at most \(maximumBytes) bytes)")
            }
            return text
        } write: { .string($0) }
    }
}

extension RPCParam where Value == Int {
    /// A whole number within `range`.
    public static func integer(_ name: String, in range: ClosedRange<Int>, _ summary: String) -> Self {
        Self(name, .integer, summary) { reader throws(RPCError) in try reader.int(name, in: range) } write: { .integer($0) }
    }
}

extension RPCParam where Value == Double {
    /// A number, within `range` when one is given.
    public static func number(_ name: String, in range: ClosedRange<Double>? = nil, _ summary: String) -> Self {
        Self(name, .number, summary) { reader throws(RPCError) in try reader.double(name, in: range) } write: { .number($0) }
    }
}

extension RPCParam where Value == Bool {
    /// `true` or `false`.
    public static func boolean(_ name: String, _ summary: String) -> Self {
        Self(name, .boolean, summary) { reader throws(RPCError) in try reader.bool(name) } write: { .bool($0) }
    }
}

extension RPCParam where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of `Value`'s names; a blank one reads as missing when the param is required.
    public static func choice(_ name: String, required: Bool = false, _ summary: String) -> Self {
        Self(name, .string, required: required, summary) { reader throws(RPCError) in
            guard let text = try reader.string(name), !(required && text.trimmingWhitespace().isEmpty) else { return nil }
            guard let value = Value(rawValue: text) else {
                let names = Value.allCases.map { "\"\($0.rawValue)\"" }
                throw .invalidParams(field: name, "must be " + names.joined(separator: " or "))
            }
            return value
        } write: { .string($0.rawValue) }
    }
}

extension RPCParams {
    /// The value of a declared param, nil when absent.
    public func callAsFunction<Value>(_ param: RPCParam<Value>) throws(RPCError) -> Value? {
        try param.read(self)
    }
}

extension RPCParams {
    /// The value of a declared param that must be given.
    public func required<Value>(_ param: RPCParam<Value>) throws(RPCError) -> Value {
        guard let value = try param.read(self) else { throw .invalidParams(field: param.name, "is required") }
        return value
    }

    /// A string that must be given and not blank.
    public func required(_ param: RPCParam<String>) throws(RPCError) -> String {
        guard let text = try param.read(self), !text.trimmingWhitespace().isEmpty else {
            throw .invalidParams(field: param.name, "is required")
        }
        return text
    }
}
