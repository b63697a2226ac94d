import ArgumentParser

/// `onthemap signup`.
struct SignupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Open Udacity's sign-up page.")

    static let signupURL = "https://auth.udacity.com/sign-up"

    func run() throws {
        try runReportingFailures { try URLOpener.open(Self.signupURL) }
    }
}
