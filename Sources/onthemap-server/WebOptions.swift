import ArgumentParser
import OnTheMapServer

/// `serve`'s options for the web page at `/` (settings keys `no-web`, `signup-url`, `web-pins`,
/// `web-poll-seconds`).
struct WebOptions: ParsableArguments {
    @Flag(help: "Serve no web page at / (the API only).")
    var noWeb = false

    @Option(
        name: .customLong("signup-url"),
        help: ArgumentHelp("A sign-up page the web page's login screen links to (http or https); without it, no link.", valueName: "url"))
    var signUpURL: String?

    // `.unconditional`, as every number: "-5" reaches WebSettings' range check, not "Missing value".
    @Option(parsing: .unconditional, help: "How many of the newest pins the web page shows (1 to \(WebSettings.maxPins)).")
    var webPins = 100

    @Option(parsing: .unconditional, help: "Seconds between the web page's checks for changed pins and an ended session (1 to 3600).")
    var webPollSeconds = 10

    /// The page's settings; nil with --no-web.
    var settings: WebSettings? {
        noWeb ? nil : WebSettings(signUpURL: signUpURL, pins: webPins, pollSeconds: webPollSeconds)
    }

    func validate() throws {
        if let problem = WebSettings(signUpURL: signUpURL, pins: webPins, pollSeconds: webPollSeconds).problem {
            throw ValidationError(problem)
        }
    }
}
