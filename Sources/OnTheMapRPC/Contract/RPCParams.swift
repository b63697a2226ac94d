import OnTheMapModels

/// Reads named params, answering -32602 with `data.field` for anything wrong.
///
/// Positional params (an array) are refused unless empty: every method's params have names, and
/// guessing an order would make scripts fragile.
public struct RPCParams: Sendable {
    private let members: WireJSON

    /// Wraps a request's params; `allowed` lists the names the method knows.
    public init(_ params: WireJSON?, allowed: Set<String>) throws(RPCError) {
        switch params {
        case nil:
            members = .object([])
        case .array(let elements)?:
            guard elements.isEmpty else {
                throw .invalidParams(field: "params", "must be named (a JSON object); positional params are not supported")
            }
            members = .object([])
        case .object(let pairs)?:
            if let unknown = pairs.map(\.0).first(where: { !allowed.contains($0) }) {
                throw .invalidParams(field: unknown, "is not a parameter of this method")
            }
            members = .object(pairs)
        default:
            throw .invalidParams(field: "params", "must be an object")
        }
    }

    private func value(_ name: String) -> WireJSON? {
        guard let value = members[name], !value.isNull else { return nil }
        return value
    }

    public func string(_ name: String) throws(RPCError) -> String? {
        guard let value = value(name) else { return nil }
        guard let text = value.stringValue else { throw .invalidParams(field: name, "must be a string, not \(value.typeDescription)") }
        return text
    }

    public func requiredString(_ name: String) throws(RPCError) -> String {
        guard let text = try string(name), !text.trimmingWhitespace().isEmpty else {
            throw .invalidParams(field: name, "is required")
        }
        return text
    }

    public func double(_ name: String, in range: ClosedRange<Double>? = nil) throws(RPCError) -> Double? {
        guard let value = value(name) else { return nil }
        guard let number = value.doubleValue else { throw .invalidParams(field: name, "must be a number, not \(value.typeDescription)") }
        if let range, !range.contains(number) {
            throw .invalidParams(field: name, "must be between \(WireJSON.format(range.lowerBound)) and \(WireJSON.format(range.upperBound))")
        }
        return number
    }

    public func int(_ name: String, in range: ClosedRange<Int>) throws(RPCError) -> Int? {
        guard let value = value(name) else { return nil }
        guard let integer = value.intValue else {
            // A number that is not whole (1.5), or past any whole number's size (1e30): said as given.
            let given = value.doubleValue.map { WireJSON.format($0) } ?? value.typeDescription
            throw .invalidParams(field: name, WholeNumberRule.requirement(range, given: given))
        }
        guard range.contains(integer) else {
            throw .invalidParams(field: name, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return integer
    }

    public func bool(_ name: String) throws(RPCError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard let flag = value.boolValue else { throw .invalidParams(field: name, "must be true or false, not \(value.typeDescription)") }
        return flag
    }

    /// A nested object, read with its own allowed names; errors name the field as `outer.inner`.
    public func object(_ name: String, allowed: Set<String>) throws(RPCError) -> RPCParams? {
        guard let value = value(name) else { return nil }
        guard case .object = value else { throw .invalidParams(field: name, "must be an object, not \(value.typeDescription)") }
        do {
            return try RPCParams(value, allowed: allowed)
        } catch {
            let field = (error.data?["field"]?.stringValue).map { "\(name).\($0)" } ?? name
            throw .invalidParams(field: field, "is not a parameter of \(name)")
        }
    }

    public func stringArray(_ name: String) throws(RPCError) -> [String]? {
        guard let value = value(name) else { return nil }
        guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else {
            throw .invalidParams(field: name, "must be an array of strings")
        }
        return elements.compactMap(\.stringValue)
    }
}
