/// `onthemap status` as status bars run it, every few seconds: read without ArgumentParser, whose
/// reflection over the command tree (Mirror, generic metadata, conformance look-ups) would take about
/// half of the whole command, which make bench holds to ≤ 3 ms and ≤ 2× a C client (Benchmarks/
/// analysis.md has the figures). Only the plain spellings of StatusCommand's own options are read
/// here; anything else (`--help`, a typo, a bad value, an option twice) is nil and goes to
/// ArgumentParser, which says what is wrong. StatusQuickTests hold both readings to the same
/// options and the same values.
extension StatusCommand {
    /// The options as read: what `show` takes.
    struct Options: Equatable {
        var json = false
        var format: StatusBarFormat?
        var socket: String?
    }

    /// The options as ArgumentParser read them.
    var options: Options { Options(json: json, format: format, socket: global.socket) }

    /// The options read here: StatusCommand's, and `--socket` from GlobalOptions.
    static let quickOptions: Set<String> = ["--json", "--format", "--socket"]

    /// The options `arguments` (after `hoistingGlobalOptions`) spell, or nil for ArgumentParser.
    static func quick(_ arguments: [String]) -> Options? {
        guard arguments.first == "status" else { return nil }
        var options = Options()
        var seen: Set<String> = []
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard quickOptions.contains(name), seen.insert(name).inserted else { return nil }
            if name == "--json" {
                guard parts.count == 1 else { return nil }
                options.json = true
                continue
            }
            guard let value = parts.count == 2 ? String(parts[1]) : rest.popFirst(), !value.isEmpty, !value.hasPrefix("-")
            else { return nil }
            if name == "--format" {
                guard let known = StatusBarFormat(rawValue: value) else { return nil }
                options.format = known
            } else {
                options.socket = value
            }
        }
        // Both is a usage error, which ArgumentParser's run says (`validate`).
        return options.json && options.format != nil ? nil : options
    }
}
