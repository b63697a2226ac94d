import OnTheMapModels

/// `myPin` → `{pin: StudentLocation | null}`.
public struct MyPinParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = MyPinResult
    public static let method = "myPin"
    public static let summary = "The logged-in user's own pin, or null."

    public init() {}
}

/// `myPin`'s result: the user's newest pin upstream (or, with `cached`, as last seen), or null.
public struct MyPinResult: RPCResultType {
    public var pin: StudentLocation?
    /// True when the upstream could not be asked and the pin is the one the daemon last saw.
    public var cached: Bool

    public init(pin: StudentLocation?, cached: Bool = false) {
        self.pin = pin
        self.cached = cached
    }

    public var wireJSON: WireJSON {
        var members: [(String, WireJSON)] = [("pin", pin?.wireJSON ?? .null)]
        if cached { members.append(("cached", .bool(true))) }
        return .object(members)
    }

    public init(wireJSON: WireJSON) {
        pin = wireJSON["pin"].flatMap(StudentLocation.init(wireJSON:))
        cached = wireJSON["cached"]?.boolValue ?? false
    }
}
