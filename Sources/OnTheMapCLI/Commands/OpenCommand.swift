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
                    let count = LastTable.rowCount
                    guard count > 0 else {
                        throw UsageFailure(
                            message: "no table or map to pick from yet: run `onthemap students` or `onthemap map` first")
                    }
                    throw UsageFailure(message: "no row \(row): the last table or map has rows 1 to \(count)")
                }
                return try URLOpener.open(link)
            }
            let result = try global.call(StudentsParams(limit: 1, search: student))
            guard let match = StudentRow.rows(result["students"]).first else {
                throw UsageFailure(message: "no student matches \"\(student)\"")
            }
            try URLOpener.open(match.link)
        }
    }
}
