import OnTheMapModels
import OnTheMapSupport

/// What the web page at `/` is told by the server's operator (`serve --signup-url`, `--web-pins`,
/// `--web-poll-seconds`; `--no-web` serves no page at all).
public struct WebSettings: Sendable, Hashable {
    /// The most pins `--web-pins` may ask for: the page reads them 1,000 (the API's largest page) at
    /// a time, and draws ten thousand smoothly (docs/benchmarks.md).
    public static let maxPins = 10_000
    static let pinsRange = NumberRange(1...maxPins)
    static let pollSecondsRange = NumberRange(1...3600, unit: .seconds)

    /// Where the login screen's "Sign up" link goes (http or https); nil shows no link.
    public var signUpURL: String?
    /// How many of the newest pins the page shows.
    public var pins: Int
    /// Seconds between the page's checks for changed pins and an ended session.
    public var pollSeconds: Int

    /// Creates settings; the defaults are those of `onthemap-server serve`.
    public init(signUpURL: String? = nil, pins: Int = 100, pollSeconds: Int = 10) {
        self.signUpURL = signUpURL
        self.pins = pins
        self.pollSeconds = pollSeconds
    }

    /// Why these settings cannot be served, in the words of the options; nil when they can.
    public var problem: String? {
        if let signUpURL, !WebLink.isValid(signUpURL) {
            return "--signup-url must be an http:// or https:// address with a host (got \(signUpURL))."
        }
        return Self.pinsRange.problem(pins, "--web-pins") ?? Self.pollSecondsRange.problem(pollSeconds, "--web-poll-seconds")
    }
}
