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
