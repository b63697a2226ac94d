import Foundation

/// How busy this machine is while a test measures wall-clock time.
///
/// A test that checks a promise made in seconds ("a refusal within a second", "serving again
/// within seconds") measures the scheduler as much as the server once other work competes for the
/// cores: beside a clean build on two cores a one-second promise was measured at 2.1 s and a
/// recovery at 5.3 s, with nothing wrong in the server. Such a bound is stretched by the machine's
/// load per core, at most threefold, so the regressions these tests were written for (waits of
/// 10 s and more, a recovery that never comes) still fail on the busiest machine.
public enum MachineLoad {
    /// The most a bound is stretched, however busy the machine.
    public static let maximumStretch = 3.0

    /// The one-minute load average per core, between 1 (idle or less) and `maximumStretch`.
    public static var stretch: Double {
        let cores = Double(max(ProcessInfo.processInfo.activeProcessorCount, 1))
        return min(max(loadAverage / cores, 1), maximumStretch)
    }

    /// `bound` stretched by the machine's load at the time of the call.
    public static func allowing(_ bound: Duration) -> Duration {
        bound * stretch
    }

    /// `seconds` stretched the same way.
    public static func allowing(seconds: Double) -> Double {
        seconds * stretch
    }

    /// The one-minute load average from `/proc/loadavg` (0 where it cannot be read).
    static var loadAverage: Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first
        else { return 0 }
        return Double(first) ?? 0
    }
}
