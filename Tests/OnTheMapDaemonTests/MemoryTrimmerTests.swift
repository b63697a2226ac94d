import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Synchronization
import Testing

@testable import OnTheMapDaemon

/// The daemon drops the geocoder's index once it goes unused, and only then; and gives back the
/// memory of a list fetched from the server for one answer.
@Suite("Memory given back: the geocoder's index when unused, a server list once answered", .ownThreads)
struct MemoryTrimmerTests {
    /// Timers the test fires by hand, in the order they were set.
    final class ManualScheduler: Sendable {
        private let pending = Mutex<[@Sendable () -> Void]>([])
        var count: Int { pending.withLock { $0.count } }

        func schedule(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
            pending.withLock { $0.append(work) }
        }

        /// Fires the timers set so far (not those they set in turn).
        func fire() {
            let due = pending.withLock { due in defer { due = [] }; return due }
            due.forEach { $0() }
        }
    }

    @Test("an idle period after a geocode drops the index once; a geocode postpones it; none sets no timer")
    func dropsOnceWhenUnused() {
        let drops = Atomic<Int>(0)
        let timers = ManualScheduler()
        let trimmer = MemoryTrimmer(dropGeocoder: { drops.add(1, ordering: .relaxed) }, schedule: timers.schedule)
        #expect(timers.count == 0)
        // However many geocodes, one check is pending.
        for _ in 0..<1000 { trimmer.geocoderUsed() }
        #expect(timers.count == 1)
        // A geocode since the check was set: no drop yet, one more check.
        trimmer.geocoderUsed()
        timers.fire()
        #expect(drops.load(ordering: .relaxed) == 0)
        #expect(timers.count == 1)
        // A whole period without one: dropped, and nothing left pending.
        timers.fire()
        #expect(drops.load(ordering: .relaxed) == 1)
        #expect(timers.count == 0)
        // Connections coming and going set no timer of this kind.
        for _ in 0..<10 { trimmer.connectionClosed(openConnectionsLeft: 1) }
        #expect(timers.count == 0)
    }

    @Test("a server list let go sets one trim at a time; once it has run, the next sets another")
    func oneTrimPendingAfterServerLists() {
        let timers = ManualScheduler()
        let trimmer = MemoryTrimmer(dropGeocoder: {}, schedule: timers.schedule)
        for _ in 0..<50 { trimmer.serverListReleased() }
        #expect(timers.count == 1)
        timers.fire()
        #expect(timers.count == 0)
        trimmer.serverListReleased()
        #expect(timers.count == 1)
    }

    @Test("after a geocode, the daemon gives the index's memory back once it goes unused, and geocodes on")
    func unusedIndexIsGivenBack() async throws {
        let bed = try DaemonTestBed(students: 100)
        defer { bed.tearDown() }
        try bed.login()
        let pid = bed.daemon.pid
        let beforeIndex = try #require(ProcessMemory.anonymousResident(pid: pid))
        let lima = try bed.result("geocode", params(("query", .string("Lima, Peru"))))
        let withIndex = try #require(ProcessMemory.anonymousResident(pid: pid))
        // Dropped between one and two idle periods (30 s) after the geocode: most of what building
        // the index added to the daemon's own memory.
        var unused = withIndex
        #expect(eventually(timeout: .seconds(75)) {
            unused = ProcessMemory.anonymousResident(pid: pid) ?? withIndex
            return unused - beforeIndex < (withIndex - beforeIndex) / 4
        }, "RssAnon \(beforeIndex / 1024) KiB before the index, \(withIndex / 1024) with it, \(unused / 1024) once unused")
        #expect(try bed.result("geocode", params(("query", .string("Lima, Peru")))) == lima)
    }

    @Test("a search over the server's 10,000 students leaves the daemon's memory as it was, without more connections")
    func aSearchBeyondTheCacheGivesItsMemoryBack() throws {
        let bed = try DaemonTestBed(students: 10_000)
        defer { bed.tearDown() }
        try bed.login()
        let pid = bed.daemon.pid
        _ = try bed.result("students", params(("limit", .integer(1))))
        let before = try #require(ProcessMemory.anonymousResident(pid: pid))
        let found = try bed.result("students", params(("search", .string("a")), ("limit", .integer(1))))
        #expect(found["source"] == .string("server"))
        // Given back a moment after the answer (`MemoryTrimmer.serverListReleased`); no client connects
        // meanwhile, so the trim after a burst of connections cannot be what gives it back.
        var after = Int.max
        #expect(eventually(timeout: .seconds(30)) {
            after = ProcessMemory.anonymousResident(pid: pid) ?? Int.max
            return after < before + 2 * 1024 * 1024
        }, "RssAnon \(before / 1024) KiB before the search, \(after / 1024) after it")
    }
}
