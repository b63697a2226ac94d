import OnTheMapRPC

/// Shorthands for the errors the daemon's operations throw.
enum RPCErrorBox {
    static var notLoggedIn: RPCError { .notLoggedIn }
}
