import FoundationEssentials
import OnTheMapModels
import OnTheMapRPC

/// The status for a person.
enum HumanStatus {
    static func render(_ status: StatusResult, style: Style, now: Date) -> String {
        var lines: [String] = []
        if let account = status.account {
            let name = DisplayText.clean(account.fullName)
            lines.append("logged in as " + style.bold(name) + " (" + DisplayText.clean(account.key) + ")")
        } else {
            lines.append(style.yellow("logged out") + ": run `onthemap login`")
        }
        let students = status.students
        // Logged out, the daemon holds no list: "students: 0, refreshed —" would only puzzle.
        if status.account != nil || students.count > 0 || students.refreshedAt != nil {
            // Before the first fetch the count is not known: "0 newest" would read as an empty class.
            let count = CountText.grouped(students.count)
            var line = students.refreshedAt.map { "students: \(count) newest, refreshed " + RelativeTime.describe($0, now: now) }
                ?? (students.count > 0 ? "students: \(count) newest, not fetched yet" : "students: not fetched yet")
            if students.stale {
                line += " " + style.yellow("(stale: \(Clause.of(students.lastError ?? "not refreshed lately")))")
            }
            if students.skipped > 0 {
                line += "; " + DisplayText.clean(students.skippedWhy ?? "\(students.skipped) records left out")
            }
            lines.append(line)
        }
        if let pin = status.myPin { lines.append("your pin: " + DisplayText.clean(pin.student.mapString)) }
        lines.append("api: " + (status.apiURL.isEmpty ? "?" : status.apiURL))
        return lines.joined(separator: "\n")
    }
}
