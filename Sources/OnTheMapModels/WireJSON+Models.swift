/// The exact key order of the bodies the API sends whose keys are not alphabetical (the alphabetical
/// ones are written by `WireCoding`, sorted keys).
extension APIErrorBody: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        .object([("status", .integer(status)), ("error", .string(error))])
    }
}

extension SessionInfo: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        .object([("id", .string(id)), ("expiration", .string(expiration))])
    }
}

extension SessionResponse: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        .object([
            ("account", .object([("registered", .bool(account.registered)), ("key", .string(account.key))])),
            ("session", session.wireJSON),
        ])
    }
}

extension LogoutResponse: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        .object([("session", session.wireJSON)])
    }
}

extension UserProfile: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        .object([
            ("first_name", .string(firstName)), ("last_name", .string(lastName)), ("nickname", .string(nickname)),
            ("key", .string(key)),
        ])
    }
}
