import ArgumentParser
import OnTheMapModels
import OnTheMapRPC

/// `onthemap refresh`.
struct RefreshCommand: ReportingCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch the student list now.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "The daemon's answer as JSON: how many students it holds and when they were fetched.")
    var json = false

    func execute() throws {
        let result = try global.result(RefreshParams())
        if json { try Output.json(result) } else { Output.error("fetched the \(CountText.grouped(result.count)) newest students") }
    }
}
