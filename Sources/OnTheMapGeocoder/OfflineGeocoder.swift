import Dispatch
import OnTheMapModels
import Synchronization
import OnTheMapSupport

/// The default geocoder: the GeoNames gazetteer built into the executable, no network needed.
public struct OfflineGeocoder: Geocoding {
    public init() {}

    /// Searches on a thread of its own (loading the gazetteer first if it is not), never on the
    /// caller's: a search takes up to milliseconds, a first load half a second, and the caller's
    /// thread runs other clients' requests.
    public func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult] {
        await Self.loadingQueue.perform { search(query, limit: limit) }
    }

    /// Synchronous search, for callers outside async code (benchmarks, tools). The first call
    /// loads the gazetteer on the calling thread.
    public func search(_ query: String, limit: Int) -> [GeocodeResult] {
        GazetteerMatcher(gazetteer: Self.indexed()).search(query, limit: limit)
    }

    /// The embedded gazetteer, indexed: 15–17 MiB, built on first use (~0.3 s in a release build) and
    /// dropped by `unload`.
    private static let index = Mutex<Gazetteer?>(nil)

    /// The index, built on this thread if there is none.
    static func indexed() -> Gazetteer {
        if let gazetteer = index.withLock({ $0 }) { return gazetteer }
        // Built outside the lock: a search that finds it unloaded builds its own rather than wait.
        let built = Gazetteer.embedded()
        return index.withLock { current in
            if let current { return current }
            current = built
            return built
        }
    }

    /// Where the gazetteer loads and searches run (a serial queue: see `DispatchQueue.perform`).
    private static let loadingQueue = DispatchQueue(label: "onthemap.gazetteer-loading")

    /// Loads and indexes the gazetteer, on a Dispatch thread: half a second of work that must not
    /// hold one of the few threads Swift concurrency runs every actor and task on.
    public static func load() async {
        guard index.withLock({ $0 == nil }) else { return }
        await loadingQueue.perform { preload() }
    }

    /// Loads and indexes the gazetteer now, on this thread.
    public static func preload() {
        _ = indexed()
    }

    /// Drops the index; the next search builds it again. The daemon calls this once no geocode has
    /// come for a while: a pin is posted now and then, and the index is most of what a daemon that
    /// geocoded once holds. Searches already running keep the index they started with.
    public static func unload() {
        index.withLock { $0 = nil }
    }

    /// Whether the index is built now.
    static var isLoaded: Bool { index.withLock { $0 != nil } }
}
