import OnTheMapModels

/// A method's result: written by the daemon, read back by clients from the same declaration.
public protocol RPCResultType: Sendable {
    /// The result as the daemon sends it.
    var wireJSON: WireJSON { get }
    /// Reads a result the daemon sent; members that are missing or of another type read as their
    /// empty value, as a client tolerates a daemon of another version.
    init(wireJSON: WireJSON)
}
