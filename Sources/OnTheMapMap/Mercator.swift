import Glibc
import OnTheMapModels

/// Web Mercator on the unit square: x 0…1 from 180°W eastwards, y 0…1 from the top (≈85.05°N) down.
public enum Mercator {
    /// The latitude at which the world is square; points beyond are drawn on the edge.
    public static let maxLatitude = 85.0511287798066

    /// x of a longitude (not wrapped: 190° gives 1.0277…).
    @inline(__always)
    public static func x(longitude: Double) -> Double {
        (longitude + 180) / 360
    }

    /// y of a latitude, clipped at ±85.05°.
    @inline(__always)
    public static func y(latitude: Double) -> Double {
        let clipped = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        return (1 - log(tan(.pi / 4 + clipped / 2)) / .pi) / 2
    }

    public static func longitude(x: Double) -> Double {
        x * 360 - 180
    }

    /// The latitude of any y, also beyond the square (a view may reach past the poles' cut-off).
    public static func latitude(y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }

    /// Kilometres on the ground per unit of x at a latitude: on the sphere `Geo.distanceKm` measures,
    /// so a `near` view's radius is the radius `students --near` filters by.
    public static func kilometresPerUnit(atLatitude latitude: Double) -> Double {
        Geo.earthCircumferenceKm * cos(min(abs(latitude), maxLatitude) * .pi / 180)
    }
}
