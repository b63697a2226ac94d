import FoundationEssentials

/// "just now", "5 min ago", "3 h ago", "12 d ago", "2 y ago": for status lines and tables.
public enum RelativeTime {
    public static func describe(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        case ..<(365 * 86_400): return "\(seconds / 86_400) d ago"
        default: return "\(seconds / (365 * 86_400)) y ago"
        }
    }

    /// When `describe(date, now:)` next reads differently: the next minute, hour, day or year
    /// boundary after `date`, from `now` on.
    public static func nextChange(of date: Date, now: Date) -> Date {
        let seconds = Int(now.timeIntervalSince(date))
        let step: Int
        switch seconds {
        case ..<60: return date.addingTimeInterval(60)
        case ..<3600: step = 60
        case ..<86_400: step = 3600
        case ..<(365 * 86_400): step = 86_400
        default: step = 365 * 86_400
        }
        return date.addingTimeInterval(TimeInterval((seconds / step + 1) * step))
    }

    /// The same for a wire timestamp; "—" when there is none or it does not parse.
    public static func describe(_ timestamp: String?, now: Date) -> String {
        guard let timestamp, let date = WireTimestamp.parse(timestamp) else { return "—" }
        return describe(date, now: now)
    }
}
