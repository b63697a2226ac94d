import OnTheMapModels
import OnTheMapGeocoder

/// Recent answers by query, so a preview followed by a post asks the server once.
actor GeocodeCache {
    private var entries: [String: (results: [GeocodeResult], storedAt: ContinuousClock.Instant)] = [:]
    private var order: [String] = []
    static let capacity = 512
    static let lifetime: Duration = .seconds(24 * 3600)

    func results(for key: String) -> [GeocodeResult]? {
        guard let entry = entries[key], ContinuousClock.now - entry.storedAt < Self.lifetime else { return nil }
        return entry.results
    }

    func store(_ results: [GeocodeResult], for key: String) {
        if entries.updateValue((results, ContinuousClock.now), forKey: key) == nil { order.append(key) }
        if order.count > Self.capacity {
            entries[order.removeFirst()] = nil
        }
    }
}
