import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapModels

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
            let params: WireJSON
            if facebookTokenStdin {
                guard let token = readLine(strippingNewline: true), !token.isEmpty else {
                    throw UsageFailure(message: "no token on standard input")
                }
                params = .object([("facebookAccessToken", .string(token))])
            } else {
                let email = try username ?? ask("Email: ", secret: false, what: "--username")
                let password: String
                if passwordStdin {
                    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                        throw UsageFailure(message: "no password on standard input")
                    }
                    password = line
                } else {
                    password = try ask("Password: ", secret: true, what: "--password-stdin")
                }
                params = .object([("username", .string(email)), ("password", .string(password))])
            }
            let account = try global.call("login", params)
            let name = [account["firstName"]?.stringValue, account["lastName"]?.stringValue].compactMap { $0 }.joined(separator: " ")
            Output.error("logged in as \(name)")
        }
    }

    private func ask(_ question: String, secret: Bool, what: String) throws -> String {
        guard Terminal.stdinIsTTY else {
            throw UsageFailure(message: "no terminal to ask on: use \(what)")
        }
        guard let answer = Terminal.prompt(question, secret: secret), !answer.isEmpty else {
            throw UsageFailure(message: "nothing entered")
        }
        return answer
    }
}

/// `onthemap logout`.
struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log out and forget the session.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReportingFailures {
            let result = try global.call("logout")
            let upstream = result["upstream"]?.stringValue ?? ""
            Output.error("logged out" + (upstream == "ended" ? "" : " (upstream: \(upstream))"))
        }
    }
}

/// `onthemap refresh`.
struct RefreshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch the student list now.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReportingFailures {
            let result = try global.call("refresh")
            Output.error("\(result["count"]?.intValue ?? 0) students")
        }
    }
}

/// `onthemap mypin`.
struct MyPinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mypin", abstract: "Show your own pin.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "The pin as JSON (null when you have none).")
    var json = false

    func run() throws {
        try runReportingFailures {
            let pin = try global.call("myPin")["pin"] ?? .null
            if json {
                Output.line(pin.serialized)
            } else if pin.isNull {
                Output.error("you have no pin yet: `onthemap post PLACE URL`")
            } else {
                let row = StudentRow(json: pin)
                Output.line("\(row.place)  (\(WireJSON.format(row.latitude)), \(WireJSON.format(row.longitude)))  \(row.link)  updated \(RelativeTime.describe(row.updatedAt, now: Date()))")
            }
        }
    }
}
