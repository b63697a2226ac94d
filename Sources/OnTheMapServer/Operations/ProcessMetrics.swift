import Foundation
import NIOConcurrencyHelpers
import Prometheus

import Glibc

/// The `process_*` series every Prometheus client library exports, with the names and meanings of
/// the Go and Python clients (so existing dashboards and alerts read them): CPU time, resident and
/// virtual memory, open and allowed descriptors, start time. Read from `/proc/self` at each scrape.
final class ProcessMetrics: Sendable {
    private let cpuSeconds: Counter
    private let residentBytes: Gauge
    private let virtualBytes: Gauge
    private let openFDs: Gauge
    private let maxFDs: Gauge
    /// The CPU seconds already added to the counter, which can only be incremented.
    private let countedCPU = NIOLockedValueBox<Double>(0)

    init(registry: PrometheusCollectorRegistry) {
        func gauge(_ name: String, _ help: String) -> Gauge {
            registry.makeGauge(descriptor: MetricNameDescriptor(whole: name, help: help))
        }
        cpuSeconds = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                whole: "process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds."))
        residentBytes = gauge("process_resident_memory_bytes", "Resident memory size in bytes.")
        virtualBytes = gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.")
        openFDs = gauge("process_open_fds", "Number of open file descriptors.")
        maxFDs = gauge("process_max_fds", "Maximum number of open file descriptors.")
        let start = gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.")
        if let stat = Self.stat(), let boot = Self.bootTime() {
            start.set(boot + stat.startTicks / Self.ticksPerSecond)
        }
    }

    /// Reads the figures now.
    func refresh() {
        if let stat = Self.stat() {
            let total = (stat.userTicks + stat.systemTicks) / Self.ticksPerSecond
            let delta = countedCPU.withLockedValue { counted in
                defer { counted = max(counted, total) }
                return total - counted
            }
            if delta > 0 { cpuSeconds.increment(by: delta) }
            virtualBytes.set(stat.virtualBytes)
            residentBytes.set(stat.residentPages * Double(sysconf(Int32(_SC_PAGESIZE))))
        }
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            // Less the descriptor that lists the directory, open while it is read.
            openFDs.set(Double(max(0, entries.count - 1)))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { maxFDs.set(Double(limit.rlim_cur)) }
    }

    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The fields of `/proc/self/stat` used here (proc(5): utime 14, stime 15, starttime 22, vsize
    /// 23, rss 24), counted after the command name, which may itself hold spaces and parentheses.
    private struct Stat {
        var userTicks: Double
        var systemTicks: Double
        var startTicks: Double
        var virtualBytes: Double
        var residentPages: Double
    }

    private static func stat() -> Stat? {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Field 3 (state) is the first after the name.
        let fields = text[text.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Double? {
            let index = number - 3
            return fields.indices.contains(index) ? Double(fields[index]) : nil
        }
        guard let user = field(14), let system = field(15), let start = field(22), let virtual = field(23),
            let resident = field(24)
        else { return nil }
        return Stat(userTicks: user, systemTicks: system, startTicks: start, virtualBytes: virtual, residentPages: resident)
    }

    /// The boot time, `btime` of `/proc/stat`, in seconds since the epoch.
    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count))
        }
        return nil
    }
}
