import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap post PLACE URL`: geocode, pick the place, post (or overwrite).
struct PostCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Post your pin: a place and a link.",
        discussion: """
            Names the place it found on stderr and, on a terminal, asks before posting; when several \
            places match (Springfield), lists them to choose from. The pin shows the place's name as \
            found ("Springfield, Illinois"), not as typed. A link without a scheme gets https://. \
            --yes takes the best match and --overwrite moves an existing pin, for scripts.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Where you are, as you would say it.")
    var place: String

    @Argument(help: "Your link (http or https; example.com/me means https://example.com/me).")
    var url: String

    @Flag(help: "Do not ask: post at the best match.")
    var yes = false

    @Flag(help: "Move your existing pin without asking.")
    var overwrite = false

    @Flag(help: "Print the daemon's result ({pin, created}) as JSON instead of a sentence.")
    var json = false

    /// How many places are offered to choose from.
    static let choices = 5

    func validate() throws {
        guard !place.trimmingWhitespace().isEmpty else {
            throw ValidationError("Give the place where you are, e.g. onthemap post \"Berlin, Germany\" https://example.com/me.")
        }
        guard !url.trimmingWhitespace().isEmpty else {
            throw ValidationError("Give your link, e.g. onthemap post \"Berlin, Germany\" https://example.com/me.")
        }
        try TypedText.check(place, atMost: TypedText.place, "The place")
        try TypedText.check(url, atMost: RPCParam<String>.defaultMaximumBytes, "The link", controls: false)
    }

    func execute() throws {
        let connection = try global.connect()
        // Logged out, nothing is looked up or said about the place: the one thing to do is log in.
        let status = try connection.result(StatusParams())
        guard status.loggedIn else { throw RPCError.notLoggedIn }
        let link = Self.typedLink(url)
        if let problem = WebLink.problem(link) {
            throw UsageFailure(
                message: "\"\(DisplayText.clean(url))\" is not a web link (\(problem)): give an http:// or https:// address, like https://example.com/me")
        }
        if !yes, !Terminal.stdinIsTTY { throw UsageFailure(message: "no terminal to confirm on: add --yes to post at the best match") }
        // --yes without --overwrite would be refused over a pin of yours: said first, with nothing
        // looked up or said about the place. Asked upstream (`myPin`), as the post itself asks, not
        // from the cached list, which may not hold it or may hold one removed since; when it cannot
        // be asked, the post's own refusal below still says it.
        if yes, !overwrite, let mine = (try? connection.result(MyPinParams()))?.pin {
            throw Self.pinExists(at: mine.student.mapString)
        }
        if link != url.trimmingWhitespace() { Output.error("link: \(link)") }
        let found = try Place.candidates(place, limit: yes ? 1 : Self.choices, on: connection)
        guard !found.isEmpty else { throw Place.notFound(place) }
        let (chosen, moving) = try yes ? (found[0], false) : choose(from: found, mine: status.myPin?.student, link: link)
        if yes { Output.error("place: \(GeocodeCommand.describe(chosen))") }
        var params = PostPinParams(
            mapString: chosen.label, mediaURL: link, latitude: chosen.latitude, longitude: chosen.longitude,
            overwrite: overwrite || moving)
        var answer = try connection.call(params)
        if case .failure(let error) = answer, error.code == RPCError.pinExistsCode, !overwrite {
            // The error's data holds the pin in hand, as every answer writes a pin.
            let pin = error.data?["pin"].flatMap { try? WireCoding.decode(StudentPin.self, from: WireCoding.encode($0)) }
            let existing = DisplayText.clean(pin?.student.mapString ?? "somewhere")
            guard Terminal.stdinIsTTY, !yes else { throw Self.pinExists(at: pin?.student.mapString ?? "somewhere") }
            guard Terminal.confirm(Self.overwriteQuestion(pin?.student, label: chosen.label, link: link)) else {
                throw CommandFailure(message: "nothing posted: your pin stays at \"\(existing)\"")
            }
            params.overwrite = true
            answer = try connection.call(params)
        }
        let posted = try answer.get()
        if json { try Output.json(posted) } else { Output.line(Self.sentence(posted)) }
    }

    /// The refusal of a post without --overwrite over your pin at `place`.
    static func pinExists(at place: String) -> CommandFailure {
        CommandFailure(message: "you already have a pin at \"\(DisplayText.clean(place))\": add --overwrite to move it")
    }

    /// What to ask before `pin` is replaced by one at `label` with `link`: about what would change,
    /// the place or only the link (the web page asks the same).
    static func overwriteQuestion(_ pin: StudentLocation?, label: String, link: String) -> String {
        let place = DisplayText.clean(pin?.mapString ?? "somewhere")
        guard let pin, pin.mapString == label else { return "You already have a pin at \"\(place)\". Move it?" }
        guard pin.mediaURL != link else { return "Your pin is already at \"\(place)\" with this link. Post it again, as your newest?" }
        return "Your pin at \"\(place)\" links to \"\(DisplayText.clean(pin.mediaURL))\". Link it to \"\(DisplayText.clean(link))\" instead?"
    }

    /// On a terminal: one match is confirmed; several are listed to pick from (Enter takes the first).
    /// With a pin of yours (`mine`) and one match, the one question is whether to move it there (it
    /// asked "Post your pin there?" and then "Move it?"); whether it was asked is returned too.
    private func choose(from found: [GeocodeResult], mine: StudentLocation?, link: String) throws -> (GeocodeResult, moving: Bool) {
        if found.count == 1 {
            Output.error("place: \(GeocodeCommand.describe(found[0]))")
            if let mine {
                guard Terminal.confirm(Self.overwriteQuestion(mine, label: found[0].label, link: link)) else {
                    throw CommandFailure(message: "nothing posted: your pin stays at \"\(DisplayText.clean(mine.mapString))\"")
                }
                return (found[0], true)
            }
            guard Terminal.confirm("Post your pin there?") else { throw CommandFailure(message: "nothing posted") }
            return (found[0], false)
        }
        Output.error("places matching \"\(DisplayText.clean(place))\":")
        let width = Terminal.stderrWidth.map { $0 - 5 }
        for (index, candidate) in found.enumerated() { Output.error("  \(index + 1)  \(GeocodeCommand.describe(candidate, width: width))") }
        while true {
            guard let answer = Terminal.prompt("Post your pin at which one? [1-\(found.count), Enter: 1, n: none] ") else {
                throw CommandFailure(message: "nothing posted")
            }
            let trimmed = answer.trimmingWhitespace().lowercased()
            if trimmed.isEmpty { return (found[0], false) }
            if ["n", "no", "q"].contains(trimmed) { throw CommandFailure(message: "nothing posted") }
            if let number = Int(trimmed), (1...found.count).contains(number) { return (found[number - 1], false) }
            Output.error("type a number from 1 to \(found.count), or n")
        }
    }

    /// The link as typed, trimmed, with https:// when it names no scheme ("example.com/me"), as the
    /// editors' post does; the daemon still checks it is an http(s) URL.
    static func typedLink(_ text: String) -> String {
        let link = text.trimmingWhitespace()
        let scheme = link.prefix { $0.isLetter || $0.isNumber || "+.-".contains($0) }
        // "javascript:alert(1)" names a scheme too (not the web's): it stays as typed, and is refused.
        // "example.com:8080/me" is a host and its port.
        let rest = link.dropFirst(scheme.count)
        let isPort = rest.dropFirst().first?.isNumber == true
        let named = !scheme.isEmpty && scheme.first!.isLetter && rest.hasPrefix(":") && !isPort
        return named ? link : "https://" + link
    }

    /// "pin posted at Lima, Peru (-12.05, -77.04)", or "pin moved to …".
    static func sentence(_ result: PostPinResult) -> String {
        let pin = result.pin.student
        return (result.created ? "pin posted at " : "pin moved to ") + DisplayText.clean(pin.mapString) + " "
            + Coordinates.text(pin.latitude, pin.longitude)
    }
}
