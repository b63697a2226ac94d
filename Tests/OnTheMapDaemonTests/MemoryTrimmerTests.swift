import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Synchronization
import Testing

@testable import OnTheMapDaemon

/// The daemon gives back the pages it mapped while busy once it falls quiet, and only then.
@Suite("Memory given back when quiet", .ownThreads)
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

    @Test("a quiet period ends with one release; activity postpones it; an idle daemon sets no timer")
    func releasesOnceWhenQuiet() {
        let releases = Atomic<Int>(0)
        let timers = ManualScheduler()
        let trimmer = MemoryTrimmer(
            releaseWhenQuiet: { releases.add(1, ordering: .relaxed) }, schedule: timers.schedule)
        // However many requests, one check is pending.
        for _ in 0..<1000 { trimmer.noteActivity() }
        #expect(timers.count == 1)
        // Requests since the check was set: no release yet, one more check.
        trimmer.noteActivity()
        timers.fire()
        #expect(releases.load(ordering: .relaxed) == 0)
        #expect(timers.count == 1)
        // A whole period without a request: released, and nothing left pending.
        timers.fire()
        #expect(releases.load(ordering: .relaxed) == 1)
        #expect(timers.count == 0)
        // The next request starts over.
        trimmer.noteActivity()
        #expect(timers.count == 1)
        timers.fire()
        #expect(releases.load(ordering: .relaxed) == 2)
    }

    @Test("a refresh on a released daemon releases again at once; one after a request waits for quiet")
    func backgroundWorkOnAQuietDaemonIsReleasedAtOnce() {
        let releases = Atomic<Int>(0)
        let timers = ManualScheduler()
        let trimmer = MemoryTrimmer(
            releaseWhenQuiet: { releases.add(1, ordering: .relaxed) }, schedule: timers.schedule)
        // Before any release: the refresh leaves it to the check for quiet.
        trimmer.noteActivity()
        trimmer.backgroundWorkDone()
        #expect(timers.count == 1)
        timers.fire()
        #expect(releases.load(ordering: .relaxed) == 1)
        // Released and left alone: each refresh releases what it mapped straight away.
        trimmer.backgroundWorkDone()
        timers.fire()
        #expect(releases.load(ordering: .relaxed) == 2)
        #expect(timers.count == 0)
        // A request since: the refresh waits for the quiet period like the request does.
        trimmer.noteActivity()
        trimmer.backgroundWorkDone()
        #expect(timers.count == 1)
        timers.fire()
        #expect(releases.load(ordering: .relaxed) == 3)
        #expect(timers.count == 0)
    }

    @Test("releasing drops this process's mapped read-only segments, and the code it then runs still works")
    func releaseDropsReadOnlySegments() throws {
        let released = MemoryTrimmer.releaseReadOnlySegments()
        // The test runner's own code alone is tens of MiB.
        #expect(released > 16 * 1024 * 1024, "\(released) bytes of read-only segments")
        // Code and read-only data come back from the page cache, unchanged.
        #expect(String(decoding: Array("still here".utf8), as: UTF8.self) == "still here")
    }

    @Test("the daemon, quiet after requests, drops its mapped code, its executable's page cache and the geocoder's index, and serves on")
    func quietDaemonDropsMappedPages() async throws {
        // A copy of its own, out of the page cache, that no other test's daemon maps: what of it is
        // in the page cache is what this daemon read (and is charged for, as `systemctl status` shows).
        // Without the release it only grows; with it, what the daemon no longer maps goes, less the
        // large folios a mapped page keeps (how much depends on the disk's read-ahead: a fifth at
        // least with this VM's 8 MiB, most of it with the kernel's default 128 KiB).
        // Beside the built one, on the disk the build is on: a copy in /tmp would not leave the page
        // cache where /tmp is a tmpfs.
        let built = BuiltProducts.path("onthemapd")
        let directory = try TemporaryDirectory(prefix: "onthemapd-copy", in: (built as NSString).deletingLastPathComponent)
        defer { directory.remove() }
        let executable = try PageCache.uncachedCopy(of: built, to: directory.file("onthemapd"))
        let bed = try DaemonTestBed(students: 100, daemonExecutable: executable)
        defer { bed.tearDown() }
        try bed.login()
        for _ in 0..<20 { _ = try bed.result("students") }
        _ = try bed.result("map", params(("width", .integer(80)), ("height", .integer(24))))
        let pid = bed.daemon.pid
        let beforeIndex = try #require(ProcessMemory.anonymousResident(pid: pid))
        let lima = try bed.result("geocode", params(("query", .string("Lima, Peru"))))
        let busy = try #require(ProcessMemory.fileResident(pid: pid))
        let withIndex = try #require(ProcessMemory.anonymousResident(pid: pid))
        let cachedBusy = try PageCache.residentBytes(of: executable)
        // Released between one and two quiet periods (30 s) after the last request: most of the
        // file pages, and most of what building the geocoder's index added to the daemon's own memory.
        var quiet = busy
        var quietAnonymous = withIndex
        var cachedQuiet = cachedBusy
        #expect(await eventually(timeout: .seconds(75)) {
            quiet = ProcessMemory.fileResident(pid: pid) ?? busy
            quietAnonymous = ProcessMemory.anonymousResident(pid: pid) ?? withIndex
            cachedQuiet = (try? PageCache.residentBytes(of: executable)) ?? cachedBusy
            return quiet < busy / 2 && quietAnonymous - beforeIndex < (withIndex - beforeIndex) / 2
                && cachedQuiet < cachedBusy * 4 / 5
        }, "RssFile \(busy / 1024) → \(quiet / 1024) KiB; RssAnon \(beforeIndex / 1024) before the index, \(withIndex / 1024) with it, \(quietAnonymous / 1024) quiet; executable in the page cache \(cachedBusy / 1024) → \(cachedQuiet / 1024) KiB")
        // Code, read-only data and the index come back as they are needed.
        let list = try bed.result("students")
        guard case .array(let pins)? = list["students"] else { Issue.record("no students array"); return }
        #expect(pins.count == 100)
        _ = try bed.result("map", params(("width", .integer(80)), ("height", .integer(24))))
        #expect(try bed.result("geocode", params(("query", .string("Lima, Peru")))) == lima)
    }
}
