import OnTheMapModels

/// `myPin` → `{pin?, cached}`.
public struct MyPinParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = MyPinResult
    public static let method = "myPin"
    public static let summary = "The logged-in user's own pin, or null."

    public init() {}
}

/// `myPin`'s result: the user's newest pin upstream (or, with `cached`, as last seen), or none.
public struct MyPinResult: RPCResultType, Equatable {
    public var pin: StudentPin?
    /// True when the upstream could not be asked and the pin is the one the daemon last saw.
    public var cached: Bool

    public init(pin: StudentPin?, cached: Bool = false) {
        self.pin = pin
        self.cached = cached
    }
}
