import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap login`: secrets come from a prompt or stdin, never from argv.
struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in with your Udacity account (or a Facebook token).",
        discussion: "On a terminal, asks for what is missing, with the password hidden.\n\n\(ExitStatus.help)")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Udacity email.")
    var username: String?

    @Flag(help: "Read the password from standard input (first line).")
    var passwordStdin = false

    @Flag(help: "Read a Facebook access token from standard input instead.")
    var facebookTokenStdin = false

    func validate() throws {
        if passwordStdin && facebookTokenStdin {
            throw ValidationError("Use --password-stdin or --facebook-token-stdin, not both.")
        }
    }

    func run() throws {
        try runReportingFailures {
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
            let account = try global.result(params)
            let name = [account.firstName, account.lastName].joined(separator: " ")
            Output.error("logged in as \(name)")
        }
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
