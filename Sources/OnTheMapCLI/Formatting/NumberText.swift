import OnTheMapModels

/// Numbers in messages.
enum NumberText {
    /// As JSON writes them: "0.1", "20100" (no ".0"), as an option takes them back.
    static func of(_ value: Double) -> String {
        (try? WireCoding.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? String(value)
    }

    /// A count or a whole distance in words' digits, grouped by three: "10,000", "1,234", "950".
    static func grouped(_ whole: Int) -> String {
        var digits = String(whole.magnitude)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return (whole < 0 ? "-" : "") + digits + grouped
    }
}
