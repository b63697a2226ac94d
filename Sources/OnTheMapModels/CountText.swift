/// The one rule for a count or a whole distance as people read it: digits grouped by three with
/// commas ("10,000", "1,234", "950", "-20,100"). The web page's `countText` and the editors'
/// `format.grouped` and `onthemap--grouped` write the same.
public enum CountText {
    public static func grouped(_ whole: Int) -> String {
        var digits = String(whole.magnitude)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return (whole < 0 ? "-" : "") + digits + grouped
    }
}
