/// Which geocoder answers `geocode` and places pins.
public enum GeocoderSetting: Sendable, Hashable {
    /// The GeoNames gazetteer built into the daemon: no network.
    case offline
    /// A Nominatim server; when it fails, the offline gazetteer answers instead if `fallbackToOffline`.
    case nominatim(url: String, fallbackToOffline: Bool)

    public static let publicNominatimURL = "https://nominatim.openstreetmap.org"
}
