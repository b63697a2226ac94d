import OnTheMapModels

/// Numbers in messages.
enum NumberText {
    /// As JSON writes them: "0.1", "20100" (no ".0"), as an option takes them back.
    static func of(_ value: Double) -> String {
        (try? WireCoding.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? String(value)
    }
}
