/// "45 seconds", "1 minute", "15 minutes", "2 hours": how long to wait, as people say it (whole
/// units, rounded up, so the wait is never shorter than said).
public enum WaitInWords {
    public static func describe(seconds: Int) -> String {
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        switch max(seconds, 1) {
        case ..<60: return unit(max(seconds, 1), "second")
        case ..<3600: return unit((seconds + 59) / 60, "minute")
        case ..<86_400: return unit((seconds + 3599) / 3600, "hour")
        default: return unit((seconds + 86_399) / 86_400, "day")
        }
    }
}
