import Foundation

/// Random identifiers and secrets, from the system's cryptographic generator.
enum SecretGenerator {
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private static let hexDigits = Array("0123456789abcdef")

    /// A Parse-style object id: 10 letters and digits.
    static func objectID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphanumerics.randomElement(using: &generator)! })
    }

    /// A fresh 10-digit account key, like Udacity's.
    static func accountKey() -> String {
        String(UInt64.random(in: 1_000_000_000...9_999_999_999))
    }

    /// A Udacity-style session id: the login time, `S`, then 128 random bits in hex.
    static func sessionID(now: Date) -> String {
        "\(Int(now.timeIntervalSince1970))S\(hex(bytes: 16))"
    }

    /// An opaque token of 256 random bits, in hex.
    static func token() -> String {
        hex(bytes: 32)
    }

    private static func hex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(bytes * 2)
        for _ in 0..<bytes {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return text
    }
}
