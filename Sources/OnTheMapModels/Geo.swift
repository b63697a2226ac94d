import Glibc

/// Distances on the Earth, with one radius for every part that measures one: `students --near` and
/// its `radiusKm`, the map's `near` view, and the geocoder's accuracy rules.
public enum Geo {
    /// The mean Earth radius (IUGG R₁), in kilometres.
    public static let earthRadiusKm = 6371.0088

    /// The Earth's circumference on that sphere, in kilometres.
    public static var earthCircumferenceKm: Double { 2 * Double.pi * earthRadiusKm }

    /// The great-circle distance between two points (haversine), in kilometres.
    public static func distanceKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return earthRadiusKm * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
