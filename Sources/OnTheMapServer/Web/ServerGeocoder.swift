import OnTheMapGeocoder
import OnTheMapModels
import ServiceLifecycle
import Synchronization

/// The embedded gazetteer behind `GET /v1/geocode`: indexed on the first lookup (15–17 MiB, about
/// half a second) and dropped again after `quiet` without one, as the daemon drops it. A server
/// answers pins all day and looks a place up when someone posts: it should not hold the index for
/// the rest of its life because one person posted once.
///
/// A `Service`: its run loop checks every quarter of `quiet` and stops at graceful shutdown.
final class ServerGeocoder: Service, Sendable {
    /// How long the index stays after the last lookup.
    let quiet: Duration
    /// When the last lookup began or ended; nil when no index is held for us. Behind a lock: requests
    /// and the run loop read and write it on any thread.
    private let lastUse = Mutex<ContinuousClock.Instant?>(nil)

    init(quiet: Duration = .seconds(60)) {
        self.quiet = quiet
    }

    /// Places matching `query`, best first.
    func places(matching query: String, limit: Int) async throws -> [GeocodeResult] {
        touch()
        defer { touch() }
        return try await OfflineGeocoder().geocode(query, limit: limit)
    }

    private func touch() {
        lastUse.withLock { $0 = .now }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.quiet / 4)
                if self.releaseIfQuiet(now: .now) { OfflineGeocoder.unload() }
            }
        }
    }

    /// Whether the index, used last more than `quiet` before `now`, is to be dropped; forgets the
    /// use so it is dropped once. A search that is running keeps the index it started with.
    func releaseIfQuiet(now: ContinuousClock.Instant) -> Bool {
        lastUse.withLock { last in
            guard let used = last, now - used >= quiet else { return false }
            last = nil
            return true
        }
    }
}
