import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// `onthemap logout`.
struct LogoutCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Log out and forget the session.",
        discussion: """
            The session is forgotten on this machine even when the server cannot be reached; then it \
            stays valid on the server until it expires, and the message says how to end it sooner.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "The daemon's answer as JSON ({\"loggedOut\", \"upstream\"}); the sentence still goes to stderr.")
    var json = false

    func execute() throws {
        let connection = try global.connect()
        // Who and where, asked first: after the logout the daemon has forgotten both, and an
        // offline logout's message needs them.
        let status = try connection.result(StatusParams())
        let result = try connection.result(LogoutParams())
        let upstream = result.upstream
        if json { try Output.json(result) }
        Output.error(Self.sentence(upstream: upstream, apiURL: status.apiURL, accountKey: status.account?.key))
    }

    /// What a logout did, from the daemon's `upstream`: "ended", "already ended", "no session", or
    /// "not reached (why); …" when the server could not be told (no answer, or an error).
    static func sentence(upstream: String, apiURL: String, accountKey: String?) -> String {
        switch upstream {
        case "ended": return "logged out"
        case "no session": return "already logged out"
        case "already ended": return "logged out (the server had already ended the session)"
        case let text where text.hasPrefix("not reached"):
            // The reason alone ("cannot reach the OnTheMap API at …: Connection refused"): its advice to
            // check the network and retry is for a request to try again, and a logout is done.
            var why = ""
            if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
                why = " (" + Clause.of(String(text[text.index(after: open)..<close])) + ")"
            }
            let server = apiURL.isEmpty ? "the server" : "the server at \(DisplayText.clean(apiURL))"
            // Unreachable, or an answer that was an error: either way the server did not end it.
            var sentence = "logged out on this machine, but \(server) did not end the session\(why): it stays valid there until it expires"
            if SignupCommand.isUdacity(apiURL) || apiURL.isEmpty {
                sentence += "; nothing on this machine can use it any more"
            } else {
                let who = accountKey.map { "--user " + ShellWord.quoted(DisplayText.clean($0)) } ?? "--user YOUR-KEY"
                sentence += ". To end it sooner, its operator can run `onthemap-server session revoke \(who)`"
            }
            return sentence + "."
        default:
            return "logged out (\(DisplayText.clean(upstream)))"
        }
    }
}
