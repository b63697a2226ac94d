import OnTheMapModels

extension StudentLocationDraft {
    /// The pin the storage tests post for account "grace" (`ServerHTTP.pin` sends the same over HTTP).
    static let graceInParis = StudentLocationDraft(
        uniqueKey: "grace", firstName: "Grace", lastName: "Hopper", mapString: "Paris, France",
        mediaURL: "https://example.com", latitude: 48.85, longitude: 2.35)
}
