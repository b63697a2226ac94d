import HummingbirdBcrypt
import NIOPosix

/// bcrypt hashing, run on NIO's blocking thread pool so a login never stalls the event loop.
public struct PasswordHasher: Sendable {
    /// ~50 ms per hash on the machines this runs on: slow for guessing, quick for a person.
    public static let defaultCost: UInt8 = 10

    /// The bcrypt work factor for new hashes (4...31).
    public var cost: UInt8

    /// Creates a hasher.
    public init(cost: UInt8 = defaultCost) {
        self.cost = min(max(cost, 4), 31)
    }

    /// The bcrypt hash of a password.
    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether the password matches the hash; with a nil hash (unknown account), spends the time of
    /// one hash at this cost and says no, so timing does not tell which emails exist.
    public func verify(_ password: String, hash: String?) async throws -> Bool {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive {
            guard let hash else {
                _ = Bcrypt.hash(password, cost: cost)
                return false
            }
            return Bcrypt.verify(password, hash: hash)
        }
    }
}
