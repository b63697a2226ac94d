import OnTheMapModels

/// The answer to a conditional `GET /StudentLocation` (`OnTheMapAPIClient.studentLocations(_:ifNoneMatch:)`).
public enum StudentLocationsResult: Sendable {
    /// The list, and its entity tag to send next time (nil when the server gives none).
    case list(StudentLocationList, etag: String?)
    /// The list the caller holds, under `etag`, is still current: keep it.
    case notModified(etag: String)
}
