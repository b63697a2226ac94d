import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap login`: secrets come from a prompt or stdin, never from argv.
struct LoginCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in with your Udacity account (or a Facebook token).",
        discussion: """
            On a terminal, asks for what is missing, with the password hidden. Already logged in, it says \
            who is, and on a terminal asks before logging in again. A script that pipes in the password \
            (with --username) or a token logs in with them, whoever was logged in; one that gives \
            nothing is told who is logged in and succeeds. --force logs in again without asking.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Udacity email.")
    var username: String?

    @Flag(help: "Read the password from standard input (first line).")
    var passwordStdin = false

    @Flag(help: "Read a Facebook access token from standard input instead.")
    var facebookTokenStdin = false

    @Flag(help: "Log in again even when already logged in, without asking.")
    var force = false

    @Flag(help: "The account logged in as JSON ({\"key\", \"firstName\", \"lastName\"}).")
    var json = false

    func validate() throws {
        if passwordStdin && facebookTokenStdin {
            throw ValidationError("Use --password-stdin or --facebook-token-stdin, not both.")
        }
    }

    func execute() throws {
        if !force, !credentialsPiped, let account = try global.result(StatusParams()).account {
            guard try logInAgain(account) else { return }
        }
        let params: LoginParams
        if facebookTokenStdin {
            guard let token = readLine(strippingNewline: true), !token.isEmpty else {
                throw UsageFailure(message: "no token on standard input: pipe it in, e.g. `printf '%s\\n' \"$TOKEN\" | onthemap login --facebook-token-stdin`")
            }
            params = LoginParams(.facebook(accessToken: token))
        } else {
            let email = try username ?? ask("Email: ", secret: false, what: "--username EMAIL")
            let password: String
            if passwordStdin {
                guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                    throw UsageFailure(message: "no password on standard input: pipe it in, e.g. `pass show udacity | onthemap login --username EMAIL --password-stdin`")
                }
                password = line
            } else {
                password = try ask("Password: ", secret: true, what: "--password-stdin")
            }
            params = LoginParams(.udacity(username: email, password: password))
        }
        // A connection of its own: the one the status came on may have been idle past the daemon's
        // `--idle-timeout` while the password was typed.
        let account = try global.result(params)
        if json { try Output.json(account) } else { Output.error("logged in as " + DisplayText.clean(account.fullName)) }
    }

    /// Credentials that name whom to log in as, given in full without a prompt: a script's login is
    /// done as asked, whoever was logged in (a wrong password leaves the session before as it was), so
    /// a script never goes on as another account, and never fails because the work was done before.
    private var credentialsPiped: Bool { facebookTokenStdin || (passwordStdin && username != nil) }

    /// Already logged in as `account`: says so, and on a terminal asks whether to log in again (no is
    /// exit 1, as a `post` not confirmed). A script that gave nothing to log in with has its answer:
    /// false, nothing to do. One that gave part (an email, no password) goes on to be told what is
    /// missing, as when logged out.
    private func logInAgain(_ account: AccountInfo) throws -> Bool {
        let who = DisplayText.clean(account.fullName) + " (" + DisplayText.clean(account.key) + ")"
        guard Terminal.stdinIsTTY, !passwordStdin else {
            if username != nil || passwordStdin { return true }
            Output.error("already logged in as \(who): nothing changed; `onthemap login --force` logs in again")
            if json { try Output.json(account) }
            return false
        }
        Output.error("already logged in as \(who)")
        guard Terminal.confirm("Log in again?") else {
            throw CommandFailure(message: "nothing changed: still logged in as \(who)")
        }
        return true
    }

    private func ask(_ question: String, secret: Bool, what: String) throws -> String {
        guard Terminal.stdinIsTTY else {
            throw UsageFailure(message: "no terminal to ask on: give \(what)")
        }
        guard let answer = Terminal.prompt(question, secret: secret), !answer.isEmpty else {
            throw UsageFailure(message: "nothing entered: run `onthemap login` again")
        }
        return answer
    }
}
