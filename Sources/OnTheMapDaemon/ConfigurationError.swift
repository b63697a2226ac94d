/// A configuration problem, said so a person can fix it.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String
    /// Whether an option on the command line was wrong: a usage error, told with the usage text. A bad
    /// environment variable or line of the file is not, and gets the message alone.
    public var fromCommandLine: Bool

    public init(_ description: String, fromCommandLine: Bool = false) {
        self.description = description
        self.fromCommandLine = fromCommandLine
    }
}
