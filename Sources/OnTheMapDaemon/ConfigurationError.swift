/// A configuration problem, said so a person can fix it.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
