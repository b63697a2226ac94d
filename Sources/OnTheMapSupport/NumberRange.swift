/// The numbers an option or a setting takes, declared once for its check and its message, so the
/// three programs say a range one way: "--port must be from 1 to 65535, or 0 for any free port",
/// "--refresh-interval must be 1 second or more", "--radius must be from 0.1 to 20100 km".
///
/// The options themselves are read with ArgumentParser's `.unconditional` parsing, so that `-5`
/// reaches this check as a number instead of reading as a flag ("Missing value for '--…'").
public struct NumberRange<Number: Comparable & Sendable & ExpressibleByIntegerLiteral>: Sendable {
    /// A unit after the numbers, singular for exactly 1 ("1 second or more").
    public struct Unit: Sendable {
        public var one: String
        public var many: String

        public init(one: String, many: String) {
            self.one = one
            self.many = many
        }

        public static var seconds: Unit { Unit(one: "second", many: "seconds") }
        public static var km: Unit { Unit(one: "km", many: "km") }
        public static var mib: Unit { Unit(one: "MiB", many: "MiB") }
    }

    public var lowest: Number
    /// Nil: no upper bound.
    public var highest: Number?
    public var unit: Unit?
    /// What 0 means when it is allowed below `lowest` ("any free port", "never").
    public var zero: String?

    /// `lowest` to `highest`, both allowed.
    public init(_ range: ClosedRange<Number>, unit: Unit? = nil, zero: String? = nil) {
        lowest = range.lowerBound
        highest = range.upperBound
        self.unit = unit
        self.zero = zero
    }

    /// `lowest` or more.
    public init(atLeast lowest: Number, unit: Unit? = nil, zero: String? = nil) {
        self.lowest = lowest
        self.unit = unit
        self.zero = zero
    }

    public func contains(_ value: Number) -> Bool {
        (value >= lowest && highest.map { value <= $0 } ?? true) || (zero != nil && value == 0)
    }

    /// "must be from 1 to 65535, or 0 for any free port": the rule without the name it is about.
    public var requirement: String {
        var text = "must be "
        if let highest {
            text += "from \(Self.text(lowest)) to \(Self.text(highest))" + (unit.map { " " + $0.many } ?? "")
        } else {
            text += Self.text(lowest) + (unit.map { " " + (lowest == 1 ? $0.one : $0.many) } ?? "") + " or more"
        }
        if let zero { text += ", or 0 for \(zero)" }
        return text
    }

    /// "NAME must be from 1 to 65535, or 0 for any free port.", when `value` breaks the rule; nil
    /// when it keeps it or was not given.
    public func problem(_ value: Number?, _ name: String) -> String? {
        guard let value, !contains(value) else { return nil }
        return "\(name) \(requirement)."
    }

    /// "20100", "0.1": numbers as people write them (no ".0").
    private static func text(_ number: Number) -> String {
        let text = "\(number)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
