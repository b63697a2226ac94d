import ArgumentParser
import FoundationEssentials
import OnTheMapModels
import OnTheMapRPC

/// `onthemap mypin`.
struct MyPinCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "mypin", abstract: "Show your own pin.",
        discussion: """
            While the server cannot be reached, shows your pin as onthemapd last saw it, and says so on stderr.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "The pin as JSON (null when you have none).")
    var json = false

    func execute() throws {
        let result = try global.result(MyPinParams())
        if json {
            if let pin = result.pin { try Output.json(pin) } else { Output.line("null") }
        } else if let pin = result.pin {
            Output.line(Self.describe(pin.student, now: Date()))
        } else {
            Output.error("you have no pin yet: `onthemap post PLACE URL` posts one")
        }
        if result.cached {
            Output.error("onthemap: the server cannot be reached; this is your pin as onthemapd last saw it")
        }
    }

    /// "Lima, Peru  (-12.05, -77.04)  https://ada.example  updated 5 min ago".
    static func describe(_ pin: StudentLocation, now: Date) -> String {
        let updated = pin.updatedAt.map { "  updated " + RelativeTime.describe($0, now: now) } ?? ""
        return DisplayText.clean(pin.mapString) + "  " + Coordinates.text(pin.latitude, pin.longitude) + "  "
            + DisplayText.clean(pin.mediaURL) + updated
    }
}
