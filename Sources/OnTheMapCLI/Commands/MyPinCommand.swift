import ArgumentParser
import FoundationEssentials
import OnTheMapModels
import OnTheMapRPC

/// `onthemap mypin`.
struct MyPinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mypin", abstract: "Show your own pin.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "The pin as JSON (null when you have none).")
    var json = false

    func run() throws {
        try runReportingFailures {
            let pin = try global.call(MyPinParams())["pin"] ?? .null
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
