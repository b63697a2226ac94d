/// The exact key order of every body the API sends.
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

extension StudentLocation: WireJSONRepresentable {
    /// Parse's order: alphabetical, timestamps in milliseconds.
    public var wireJSON: WireJSON {
        var members: [(String, WireJSON)] = []
        members.reserveCapacity(10)
        if let createdAt { members.append(("createdAt", .string(WireTimestamp.milliseconds(createdAt)))) }
        members.append(("firstName", .string(firstName)))
        members.append(("lastName", .string(lastName)))
        members.append(("latitude", .number(latitude)))
        members.append(("longitude", .number(longitude)))
        members.append(("mapString", .string(mapString)))
        members.append(("mediaURL", .string(mediaURL)))
        members.append(("objectId", .string(objectId)))
        members.append(("uniqueKey", .string(uniqueKey)))
        if let updatedAt { members.append(("updatedAt", .string(WireTimestamp.milliseconds(updatedAt)))) }
        return .object(members)
    }
}

extension StudentLocationList: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        .object([("results", .array(results.map(\.wireJSON)))])
    }
}

extension CreatedLocation: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        .object([("createdAt", .string(createdAt)), ("objectId", .string(objectId))])
    }
}

extension UpdatedLocation: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        .object([("updatedAt", .string(updatedAt))])
    }
}

extension StudentLocationDraft: WireJSONRepresentable {
    /// The order of the course's examples.
    public var wireJSON: WireJSON {
        .object([
            ("uniqueKey", .string(uniqueKey)), ("firstName", .string(firstName)), ("lastName", .string(lastName)),
            ("mapString", .string(mapString)), ("mediaURL", .string(mediaURL)), ("latitude", .number(latitude)),
            ("longitude", .number(longitude)),
        ])
    }
}

extension LoginRequest: WireJSONRepresentable {
    public var wireJSON: WireJSON {
        switch self {
        case .udacity(let username, let password):
            .object([("udacity", .object([("username", .string(username)), ("password", .string(password))]))])
        case .facebook(let accessToken):
            .object([("facebook_mobile", .object([("access_token", .string(accessToken))]))])
        }
    }
}
