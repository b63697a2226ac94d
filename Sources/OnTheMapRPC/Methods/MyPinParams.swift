import OnTheMapModels

/// `myPin` → `{pin: StudentLocation | null}`.
public struct MyPinParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = MyPinResult
    public static let method = "myPin"
    public static let summary = "The logged-in user's own pin, or null."

    public init() {}
}

/// `myPin`'s result: the user's newest pin upstream, or null.
public struct MyPinResult: Sendable {
    public var pin: StudentLocation?

    public init(pin: StudentLocation?) {
        self.pin = pin
    }

    public var wireJSON: WireJSON { .object([("pin", pin?.wireJSON ?? .null)]) }
}
