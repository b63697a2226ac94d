/// Coordinates as the client prints them: two decimals each, always both ("-93.30", not "-93.3";
/// about a kilometre), so sentences, lists and columns read alike.
enum Coordinates {
    /// "(37.22, -93.30)".
    static func text(_ latitude: Double, _ longitude: Double) -> String {
        "(" + decimal(latitude) + ", " + decimal(longitude) + ")"
    }

    /// `value` rounded to two decimals, both written; "-0.00" is "0.00".
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        let hundredths = Int((abs(value) * 100).rounded())
        let fraction = hundredths % 100
        let sign = value < 0 && hundredths > 0 ? "-" : ""
        return sign + String(hundredths / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }
}
