import ArgumentParser
import OnTheMapClient
import FoundationEssentials
import OnTheMapModels
import OnTheMapRPC

#if canImport(Glibc)
import Glibc
#endif

/// `onthemap open STUDENT`.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Open a student's link: by number in the last table or map, or by name.",
        discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A row number from the last `onthemap students` table or pin number of the last `onthemap map`, or a name.")
    var student: String

    func run() throws {
        try runReportingFailures {
            if let row = Int(student) {
                guard let link = LastTable.link(row: row) else {
                    throw UsageFailure(message: "no row \(row) in the last table or map: run `onthemap students` or `onthemap map` first")
                }
                return try URLOpener.open(link)
            }
            let result = try global.call("students", .object([("search", .string(student)), ("limit", .integer(1))]))
            guard let match = StudentRow.rows(result["students"]).first else {
                throw UsageFailure(message: "no student matches \"\(student)\"")
            }
            try URLOpener.open(match.link)
        }
    }
}

/// `onthemap signup`.
struct SignupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Open Udacity's sign-up page.")

    static let signupURL = "https://auth.udacity.com/sign-up"

    func run() throws {
        try runReportingFailures { try URLOpener.open(Self.signupURL) }
    }
}

/// `onthemap call METHOD [PARAMS]`: any RPC, for scripts.
struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "Call any daemon method; prints the result JSON, or the error JSON on stderr.",
        discussion: "Example: onthemap call students '{\"limit\":3}'\n\n\(ExitStatus.help)")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A method name (`onthemap call rpc.discover` lists them).")
    var method: String

    @Argument(help: "Named params as a JSON object.")
    var params: String?

    func run() throws {
        var parsed: WireJSON?
        if let params {
            guard let value = try? WireJSON.parse(params.utf8) else {
                throw ValidationError("PARAMS must be JSON, e.g. '{\"limit\":3}'.")
            }
            parsed = value
        }
        do {
            switch try global.connect().call(method, params: parsed) {
            case .success(let result):
                Output.line(result.serialized)
            case .failure(let error):
                Output.error(WireJSON.object([("code", .integer(error.code)), ("message", .string(error.message))] + (error.data.map { [("data", $0)] } ?? [])).serialized)
                throw CLIFailure.status(for: error)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw CLIFailure.exit(for: error)
        }
    }
}
