import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap signup`.
struct SignupCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Open the page where accounts are made: Udacity's, or the one a self-hosted server names.",
        discussion: """
            On a self-hosted server (onthemap-server), opens the sign-up page its operator names \
            (serve --signup-url), the one its web page links to; a server that names none makes accounts \
            through its operator, and the message says so (exit status 1).

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "The page opened as JSON ({\"link\"}); what the opener prints goes to stderr.")
    var json = false

    static let signupURL = "https://auth.udacity.com/sign-up"
    /// The API Udacity's accounts are for (onthemapd's default).
    static let udacityAPIHost = "onthemap-api.udacity.com"

    func execute() throws {
        // Which server the daemon uses decides where an account comes from; a daemon that is not
        // running would use Udacity's unless configured otherwise, so its page is the answer then.
        // The default wait: the daemon reads the server's page for its sign-up link, and gives
        // up on a server that does not answer by itself (its request timeout).
        let connection = try? global.connect()
        guard let connection, let apiURL = try? connection.result(StatusParams()).apiURL, !apiURL.isEmpty, !Self.isUdacity(apiURL)
        else { return try open(Self.signupURL) }
        let server = DisplayText.clean(apiURL)
        let page: String?
        do {
            page = try connection.result(SignUpParams()).url
        } catch let error as RPCError where error.code == RPCError.methodNotFoundCode {
            // A daemon older than this client cannot say: the operator can.
            page = nil
        }
        guard let page else {
            throw CommandFailure(
                message: "the server at \(server) names no sign-up page, and Udacity accounts do not work there: ask its operator for an account (they add one with `onthemap-server user add`)")
        }
        try open(page)
    }

    private func open(_ page: String) throws {
        let opened = try URLOpener.open(page, json: json)
        if json { try Output.json(OpenedLink(link: opened)) }
    }

    /// Whether `apiURL` is Udacity's service.
    static func isUdacity(_ apiURL: String) -> Bool {
        guard let scheme = apiURL.firstRange(of: "://") else { return false }
        let host = apiURL[scheme.upperBound...].prefix { $0 != "/" && $0 != ":" }
        return host.lowercased() == udacityAPIHost
    }
}
