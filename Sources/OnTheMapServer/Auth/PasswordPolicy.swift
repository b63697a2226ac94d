/// What a new password must be, wherever one is set: `user add`, `user passwd`, and any sign-up path.
public struct PasswordPolicy: Sendable, Equatable {
    /// The shortest password accepted unless the operator sets another (`--min-password-length`).
    public static let defaultMinimumLength = 8
    /// bcrypt reads no further than this many bytes, so a longer password would not count in full.
    public static let maximumBytes = 72

    /// Characters (not bytes: "é" is one).
    public var minimumLength: Int

    public init(minimumLength: Int = PasswordPolicy.defaultMinimumLength) {
        self.minimumLength = minimumLength
    }

    /// Why `password` cannot be used, in the user's words; nil when it can.
    public func problem(with password: String) -> String? {
        if password.count < minimumLength {
            return "The password is too short: use at least \(minimumLength) characters."
        }
        if password.utf8.count > Self.maximumBytes {
            return "The password is longer than \(Self.maximumBytes) bytes, which bcrypt cannot use in full."
        }
        return nil
    }
}
