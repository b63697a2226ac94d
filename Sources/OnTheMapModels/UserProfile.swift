/// The body answering `GET /users/{key}`: the account's public names.
///
/// Encodes top-level keys; decodes either that or the older `{"user":{…}}` wrapper.
public struct UserProfile: Sendable, Hashable, Codable {
    public var firstName: String
    public var lastName: String
    public var nickname: String
    public var key: String

    /// Creates a profile.
    public init(firstName: String, lastName: String, nickname: String, key: String) {
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
        self.key = key
    }

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
        case nickname
        case key
    }

    private enum WrapperKeys: String, CodingKey {
        case user
    }

    public init(from decoder: any Decoder) throws {
        let wrapper = try decoder.container(keyedBy: WrapperKeys.self)
        let container =
            wrapper.contains(.user)
            ? try wrapper.nestedContainer(keyedBy: CodingKeys.self, forKey: .user)
            : try decoder.container(keyedBy: CodingKeys.self)
        let key = try container.decode(String.self, forKey: .key)
        guard !key.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .key, in: container, debugDescription: "user key is missing")
        }
        self.init(
            firstName: try container.decode(String.self, forKey: .firstName),
            lastName: try container.decode(String.self, forKey: .lastName),
            nickname: try container.decodeIfPresent(String.self, forKey: .nickname) ?? "",
            key: key
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(firstName, forKey: .firstName)
        try container.encode(lastName, forKey: .lastName)
        try container.encode(nickname, forKey: .nickname)
        try container.encode(key, forKey: .key)
    }
}
