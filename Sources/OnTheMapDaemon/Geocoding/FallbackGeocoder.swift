import OnTheMapModels
import Logging
import OnTheMapGeocoder

/// Asks `primary`; when it fails (not when it finds nothing), asks `fallback` and says so in the log.
public struct FallbackGeocoder: Geocoding {
    let primary: any Geocoding
    let fallback: any Geocoding
    let logger: Logger

    public init(primary: any Geocoding, fallback: any Geocoding, logger: Logger) {
        self.primary = primary
        self.fallback = fallback
        self.logger = logger
    }

    public func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult] {
        do {
            return try await primary.geocode(query, limit: limit)
        } catch let error as GeocoderError {
            logger.warning("geocoder failed; answering from the offline gazetteer", metadata: ["reason": "\(error)"])
            return try await fallback.geocode(query, limit: limit)
        }
    }
}
