import Dispatch
import OnTheMapModels
import Synchronization

/// The default geocoder: the GeoNames gazetteer built into the executable, no network needed.
public struct OfflineGeocoder: Geocoding {
    public init() {}

    public func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult] {
        await Self.load()
        return search(query, limit: limit)
    }

    /// Synchronous search, for callers outside async code (benchmarks, tools). The first call
    /// loads the gazetteer on the calling thread.
    public func search(_ query: String, limit: Int) -> [GeocodeResult] {
        GazetteerMatcher(gazetteer: Gazetteer.embedded).search(query, limit: limit)
    }

    private static let loaded = Atomic<Bool>(false)

    /// Where the gazetteer loads (a serial queue: see `DispatchQueue.perform`).
    private static let loadingQueue = DispatchQueue(label: "onthemap.gazetteer-loading")

    /// Loads and indexes the gazetteer, on a Dispatch thread: half a second of work that must not
    /// hold one of the few threads Swift concurrency runs every actor and task on.
    public static func load() async {
        guard !loaded.load(ordering: .acquiring) else { return }
        await loadingQueue.perform { preload() }
    }

    /// Loads and indexes the gazetteer now, on this thread.
    public static func preload() {
        _ = Gazetteer.embedded.places.count
        loaded.store(true, ordering: .releasing)
    }
}
