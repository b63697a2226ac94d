import ArgumentParser
import OnTheMapRPC

/// `onthemap refresh`.
struct RefreshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch the student list now.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReportingFailures {
            Output.error("\(try global.result(RefreshParams()).count) students")
        }
    }
}
