import OnTheMapModels

extension Array where Element == StudentLocation {
    /// The pins a list page can carry. JSON has no NaN or infinity, and `JSONEncoder` throws on one, so
    /// a single such pin would fail every page holding it; the API refuses them, but a PostgreSQL
    /// `double precision` column holds a NaN written by hand. Clients left such a record out anyway
    /// (the old writer spelt it `null`).
    var writable: [StudentLocation] {
        filter { $0.latitude.isFinite && $0.longitude.isFinite }
    }
}
