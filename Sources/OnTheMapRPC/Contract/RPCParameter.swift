/// One named param of a method as `rpc.discover` and docs/PROTOCOL.md list it: its name, its JSON
/// type, whether it must be given, and what it means.
public struct RPCParameter: Sendable, Hashable {
    /// A JSON-schema type name.
    public enum Kind: String, Sendable {
        case string, integer, number, boolean, object, array
    }

    public var name: String
    public var kind: Kind
    public var required: Bool
    /// One line for a person.
    public var summary: String

    /// Creates a description.
    public init(name: String, kind: Kind, required: Bool, summary: String) {
        self.name = name
        self.kind = kind
        self.required = required
        self.summary = summary
    }
}
