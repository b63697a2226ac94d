import FoundationEssentials
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// What a status bar shows, whatever its format.
struct StatusSummary {
    enum State: String {
        /// Logged in, the first list not fetched yet (just after a login).
        case fetching
        case ok, stale, loggedOut = "logged-out", offline
        /// The daemon there is another user's: its socket is not ours to open, or it answered that
        /// it serves only its own user (`ClientError.refused`). It may well be running: not "offline".
        case refused
    }

    var state: State
    var count: Int
    /// Your pin's place, made safe to show (`DisplayText`): another student's server wrote it.
    var myPlace: String?
    var detail: String
    /// Why the daemon did not answer, when it did not: what happened, then what to do.
    var offlineReason: String?
    /// What to do about it (`StartAdvice`, the end of `offlineReason`), for the tooltip.
    var offlineAdvice: String?

    /// The summary of what `status` got: the daemon's status, or why there is none.
    init(_ answer: Result<StatusResult, any Error>, now: Date) {
        switch answer {
        case .success(let status): self.init(status: status, now: now)
        case .failure(let error):
            let client = error as? ClientError
            self.init(status: nil, now: now, reason: client?.message ?? "\(error)", hung: client?.kind == .timeout)
            offlineAdvice = client?.advice
            if let uid = client?.otherUser {
                state = .refused
                detail = "refused: the socket belongs to another user (uid \(uid))"
            }
        }
    }

    /// The summary of a status; nil: the daemon did not answer (`reason` says why; `hung`: it is
    /// there and did not answer in time, which "not running" would misname).
    init(status: StatusResult?, now: Date, reason: String? = nil, hung: Bool = false) {
        guard let status else {
            state = .offline
            count = 0
            detail = hung ? "onthemapd is not answering" : "onthemapd is not running"
            offlineReason = reason
            return
        }
        count = status.students.count
        myPlace = status.myPin.map { DisplayText.clean($0.student.mapString) }
        if !status.loggedIn {
            state = .loggedOut
            detail = "logged out: run `onthemap login`"
        } else if status.students.refreshedAt == nil, status.students.lastError == nil {
            state = .fetching
            detail = "fetching the student list"
        } else if status.students.stale {
            state = .stale
            // How old the list is matters most when it is stale.
            detail = "stale: " + Clause.of(status.students.lastError ?? "not refreshed lately")
                + (status.students.refreshedAt.map { "; refreshed " + RelativeTime.describe($0, now: now) } ?? "")
        } else {
            state = .ok
            detail = "refreshed " + (status.students.refreshedAt.map { RelativeTime.describe($0, now: now) } ?? "—")
        }
    }

    /// Short, for a bar: the count and the first part of your pin's place ("📍 100 · Springfield"),
    /// "!" when stale; the whole place and why it is stale are in the tooltip.
    var text: String {
        switch state {
        case .offline: "📍 offline"
        case .refused: "📍 refused"
        case .loggedOut: "📍 logged out"
        case .fetching: "📍 …"
        case .ok, .stale: "📍 \(CountText.grouped(count))" + (shortPlace.map { " · \($0)" } ?? "") + (state == .stale ? " !" : "")
        }
    }

    /// The place's name, before its region and country: "Springfield" of "Springfield, Ohio, United
    /// States"; a place typed without commas is cut at `shortPlaceLength` characters, with "…".
    private var shortPlace: String? {
        myPlace.map { place in
            let name = place.prefix { $0 != "," }
            return name.count > Self.shortPlaceLength ? name.prefix(Self.shortPlaceLength - 1) + "…" : String(name)
        }
    }

    /// The most characters of your place a bar's text shows ("Llanfairpwllgwyngyll" fits).
    static let shortPlaceLength = 24

    /// What is known, and only that: offline, neither the count nor your pin is.
    var tooltip: String {
        switch state {
        // The advice the CLI gives (`onthemap status`), so the bar says what to do; the paths tried
        // are for `onthemap status` to list.
        case .offline:
            offlineAdvice.map { detail + ". " + DisplayText.clean($0) } ?? detail + (offlineReason.map { " (\(DisplayText.clean($0)))" } ?? "")
        // What was refused, and what to do: use your own daemon (the daemon's own words when it was
        // the daemon that refused).
        case .refused: offlineAdvice.map { detail + ". " + DisplayText.clean($0) } ?? detail
        case .loggedOut, .fetching: detail
        case .ok, .stale:
            "\(CountText.grouped(count)) newest students" + (myPlace.map { "; your pin: \($0)" } ?? "; no pin of yours") + "; \(detail)"
        }
    }

    /// Green, yellow when stale, grey when logged out or fetching (nothing is wrong), red when the
    /// daemon is not there, or not ours.
    var color: String {
        switch state {
        case .ok: "#a6e3a1"
        case .stale: "#f9e2af"
        case .loggedOut, .fetching: "#9399b2"
        case .offline, .refused: "#f38ba8"
        }
    }

    /// i3blocks' JSON block (`format=json`): the one way a persistent (`interval=persist`) block can
    /// change its colour, since it reads one line per update. Its `markup` is none whatever the bar's
    /// configuration says for every block (`markup=pango`): a place another student wrote as
    /// `<span size='99999'>` stays text.
    var i3blocksJSON: String {
        struct Block: Encodable {
            // swift-format-ignore: i3blocks' own names.
            var full_text, short_text, color: String
            var markup = "none"
        }
        return (try? Output.jsonBytes(Block(full_text: text, short_text: shortText, color: color)))
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// For a narrow bar: the count alone; otherwise `text`, whose words say what is wrong where no
    /// count (a "0" or a "-") would.
    var shortText: String {
        switch state {
        case .ok, .stale: "📍 \(CountText.grouped(count))"
        case .offline, .refused, .loggedOut, .fetching: text
        }
    }

    /// One line for a person (`watch` on a terminal): "100 students; your pin: Lima, Peru; refreshed
    /// just now".
    var sentence: String {
        switch state {
        case .offline: detail + "; waiting for it"
        case .refused, .loggedOut, .fetching: detail
        case .ok, .stale: tooltip
        }
    }
}

/// `--format waybar|i3blocks|polybar|json` lines.
enum StatusBarFormat: String, CaseIterable {
    case waybar, i3blocks, polybar, json

    /// The line for `summary`; `json` prints `status` as the daemon sent it, or, offline,
    /// `{"offline":true,"reason":…}` (onthemap(1), "STATUS BARS").
    func render(_ summary: StatusSummary, status: StatusResult?) throws -> String {
        switch self {
        case .waybar:
            // https://github.com/Alexays/Waybar/wiki/Module:-Custom: one JSON object per line. Waybar
            // reads the text and the tooltip as Pango markup: its `"escape": true` covers the tooltip
            // only from 0.10.1 (Debian 12 has 0.9.17), so the line comes escaped, and the shipped
            // config says `"escape": false`. A bare `&` would make the whole tooltip unreadable.
            return try Self.line(
                WaybarLine(
                    text: Self.pangoEscaped(summary.text), tooltip: Self.pangoEscaped(summary.tooltip),
                    class: summary.state.rawValue, alt: summary.state.rawValue))
        case .i3blocks:
            // full_text, short_text, color: one per line. Joined with `+`: the generic
            // `joined(separator:)` made the runtime scan every protocol conformance in the program.
            return summary.text + "\n" + summary.shortText + "\n" + summary.color
        case .polybar:
            // Polybar reads every `%{` in the text as a tag, and `%{A1:command:}` as a command to
            // run on a click. It has no escape (lemonbar's `%%` is not polybar's: its parser shows
            // the first `%` and still reads the `%{` after it), so a zero-width space goes between
            // the text's own `%` and `{`: only our tags are tags, and the text looks the same.
            return "%{F\(summary.color)}" + summary.text.replacing("%{", with: "%\u{200B}{") + "%{F-}"
        case .json:
            if let status { return try Self.line(status) }
            return try Self.line(Offline(reason: summary.offlineReason ?? summary.detail, refused: summary.state == .refused ? true : nil))
        }
    }

    /// Text as Pango markup shows it: `&`, `<` and `>` as entities.
    static func pangoEscaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }

    private static func line(_ value: some Encodable) throws -> String {
        String(decoding: try Output.jsonBytes(value), as: UTF8.self)
    }

    /// waybar's custom module line.
    private struct WaybarLine: Encodable {
        var text: String
        var tooltip: String
        var `class`: String
        var alt: String
        var percentage = 0
    }

    /// `--format json` while the daemon does not answer.
    struct Offline: Codable {
        var offline = true
        var reason: String
        /// Present (true) when the daemon there is another user's (`StatusSummary.State.refused`).
        var refused: Bool?
    }
}
