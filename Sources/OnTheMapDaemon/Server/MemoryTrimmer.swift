import CMalloc
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import OnTheMapAPI

/// Gives memory back to the kernel after bursts of connections.
///
/// Each connection allocates buffers on an event-loop thread; glibc keeps what they free in its
/// per-thread arenas, so RSS stayed ~15 MiB higher after 1,000 connections came and went, for
/// good. Two arenas instead of one per thread, and a `malloc_trim` once the daemon is left with no
/// clients after many, give most of it back, and a second burst adds nothing (docs/benchmarks.md).
public final class MemoryTrimmer: Sendable {
    /// Connections closed since the last trim; below this, trimming is not worth its time.
    static let closedConnectionsBeforeTrim = 64
    private let closedSinceTrim = Atomic<Int>(0)

    /// Call once, before any thread exists.
    public static func limitArenas() {
        onthemap_limit_malloc_arenas(2)
    }

    /// Records a closed connection; trims when none are left open after many closed.
    func connectionClosed(openConnectionsLeft: Int) {
        let closed = closedSinceTrim.add(1, ordering: .relaxed).newValue
        guard openConnectionsLeft == 0, closed >= Self.closedConnectionsBeforeTrim else { return }
        closedSinceTrim.store(0, ordering: .relaxed)
        // A moment later: the connections' tasks free their last buffers after the close.
        Task.detached(priority: .background) {
            try? await EventLoopTimer.sleep(for: .seconds(1))
            onthemap_malloc_trim()
        }
    }

    /// Drops the executable's pages mapped so far: of the daemon's ~150 MB executable (the gazetteer
    /// and ICU data included) start-up leaves ~24 MiB mapped, most of it never read again. The pages
    /// stay in the page cache; a page the daemon does use is mapped again on first touch, with the
    /// 64 KiB around it (the kernel's fault-around, which no `madvise` advice turns off: checked
    /// on Linux 6.18, `MADV_RANDOM` still maps 64 KiB per fault).
    public static func releaseExecutablePages() {
        #if canImport(Glibc)
        guard let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8),
            let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        else { return }
        // Only mappings of the executable that hold nothing but clean file pages: read-only data
        // the loader relocated (RELRO) is private and dirty, and dropping it would lose the relocations.
        var candidate: (start: UInt, end: UInt)?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 6 {
                let bounds = range.split(separator: "-").compactMap { UInt(String($0), radix: 16) }
                let isOurs = line.hasSuffix(executable) && !fields[1].contains("w")
                candidate = isOurs && bounds.count == 2 ? (bounds[0], bounds[1]) : nil
            } else if let mapping = candidate, fields.first == "Anonymous:" {
                candidate = nil
                guard fields.count >= 2, fields[1] == "0", let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
                else { continue }
                let length = Int(mapping.end - mapping.start)
                _ = madvise(start, length, MADV_DONTNEED)
            }
        }
        #endif
    }
}
