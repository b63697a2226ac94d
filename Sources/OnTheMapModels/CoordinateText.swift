/// "LAT,LON" as people type it (`--near -33.9,151.2`), read the same way by the client and the
/// daemon.
public enum CoordinateText {
    /// Two numbers that are not a place on Earth.
    public struct OutOfRange: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The coordinates; nil when the text is not two numbers, so names a place to geocode. Throws
    /// when it is two numbers out of range: "95,200" is a typo, not a place called that.
    public static func parse(_ text: String) throws(OutOfRange) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",").map { $0.trimmingWhitespace() }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        guard (-90...90).contains(latitude) else {
            throw OutOfRange(description: "latitude \(parts[0]) is out of range: it goes from -90 to 90")
        }
        guard (-180...180).contains(longitude) else {
            throw OutOfRange(description: "longitude \(parts[1]) is out of range: it goes from -180 to 180")
        }
        return (latitude, longitude)
    }
}
