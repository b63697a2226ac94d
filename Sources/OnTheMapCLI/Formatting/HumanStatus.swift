#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OnTheMapModels
import OnTheMapRPC

/// The status for a person. Apart from `StatusCommand`, so the fast path never touches the command
/// type (whose property wrappers cost start-up time).
enum HumanStatus {
    // Built with `+` rather than `joined(separator:)`: that generic call is not specialised here and
    // makes the runtime look conformances up, which costs a short-lived process ~0.2 ms.
    static func render(_ status: StatusResult, style: Style, now: Date) -> String {
        var lines: [String] = []
        if let account = status.account {
            let first = account.firstName
            let last = account.lastName
            let name = first.isEmpty || last.isEmpty ? first + last : first + " " + last
            lines.append("logged in as " + style.bold(name) + " (" + (account.key.isEmpty ? "?" : account.key) + ")")
        } else {
            lines.append(style.yellow("logged out") + ": run `onthemap login`")
        }
        let students = status.students
        // Logged out, the daemon holds no list: "students: 0, refreshed —" would only puzzle.
        if status.account != nil || students.count > 0 || students.refreshedAt != nil {
            let refreshed = students.refreshedAt.map { ", refreshed " + RelativeTime.describe($0, now: now) } ?? ", not fetched yet"
            var line = "students: " + String(students.count) + refreshed
            if students.stale {
                line += " " + style.yellow("(stale: \(students.lastError ?? "not refreshed lately"))")
            }
            if students.unplaceable > 0 {
                line += "; " + String(students.unplaceable) + " left out (no usable coordinates)"
            }
            lines.append(line)
        }
        if let pin = status.myPin { lines.append("your pin: " + pin.mapString) }
        lines.append("api: " + (status.apiURL.isEmpty ? "?" : status.apiURL))
        var text = lines[0]
        for line in lines.dropFirst() { text += "\n" + line }
        return text
    }
}
