#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OnTheMapModels
import OnTheMapRPC

/// What a status bar shows, whatever its format.
struct StatusSummary {
    enum State: String {
        case ok, stale, loggedOut = "logged-out", offline
    }

    var state: State
    var count: Int
    var myPlace: String?
    var detail: String

    /// The summary of a status; nil: the daemon did not answer.
    init(status: StatusResult?, now: Date) {
        guard let status else {
            state = .offline
            count = 0
            detail = "onthemapd is not running"
            return
        }
        count = status.students.count
        myPlace = status.myPin?.mapString
        if !status.loggedIn {
            state = .loggedOut
            detail = "logged out: run `onthemap login`"
        } else if status.students.stale {
            state = .stale
            detail = "stale: " + (status.students.lastError ?? "not refreshed lately")
        } else {
            state = .ok
            detail = "refreshed " + (status.students.refreshedAt.map { RelativeTime.describe($0, now: now) } ?? "—")
        }
    }

    var text: String {
        switch state {
        case .offline: "📍 offline"
        case .loggedOut: "📍 logged out"
        case .ok, .stale: "📍 \(count)" + (myPlace.map { " · \($0)" } ?? "") + (state == .stale ? " (stale)" : "")
        }
    }

    var tooltip: String {
        "\(count) students" + (myPlace.map { "; your pin: \($0)" } ?? "; no pin of yours") + "; \(detail)"
    }

    /// Green, yellow, grey when logged out (nothing is wrong), red when the daemon is not there.
    var color: String {
        switch state {
        case .ok: "#a6e3a1"
        case .stale: "#f9e2af"
        case .loggedOut: "#9399b2"
        case .offline: "#f38ba8"
        }
    }

    /// i3blocks' JSON block (`format=json`): the one way a persistent (`interval=persist`) block can
    /// change its colour, since it reads one line per update.
    var i3blocksJSON: String {
        WireJSON.object([
            ("full_text", .string(text)), ("short_text", .string(shortText)), ("color", .string(color)),
        ]).serialized
    }

    /// For a narrow bar: the count alone; logged out and offline in their one word each, as no count
    /// (a "0" or a "-") says what is wrong.
    var shortText: String {
        switch state {
        case .offline: "📍 offline"
        case .loggedOut: "📍 logged out"
        case .ok, .stale: "📍 " + String(count)
        }
    }

    /// One line for a person (`watch` on a terminal): "100 students; your pin: Lima, Peru; refreshed
    /// just now".
    var sentence: String {
        switch state {
        case .offline: "onthemapd is not running; waiting for it"
        case .loggedOut: detail
        case .ok, .stale: tooltip
        }
    }
}

/// `--format waybar|i3blocks|polybar|json` lines.
enum StatusBarFormat: String, CaseIterable {
    case waybar, i3blocks, polybar, json

    /// The line for `summary`; `json` prints `status` as the daemon sent it.
    func render(_ summary: StatusSummary, status: WireJSON?) -> String {
        switch self {
        case .waybar:
            // https://github.com/Alexays/Waybar/wiki/Module:-Custom: one JSON object per line.
            return WireJSON.object([
                ("text", .string(summary.text)), ("tooltip", .string(summary.tooltip)),
                ("class", .string(summary.state.rawValue)), ("alt", .string(summary.state.rawValue)),
                ("percentage", .integer(0)),
            ]).serialized
        case .i3blocks:
            // full_text, short_text, color: one per line. Joined with `+`: the generic
            // `joined(separator:)` made the runtime scan every protocol conformance in the program.
            return summary.text + "\n" + summary.shortText + "\n" + summary.color
        case .polybar:
            return "%{F\(summary.color)}\(summary.text)%{F-}"
        case .json:
            return (status ?? .object([("offline", .bool(true))])).serialized
        }
    }
}
