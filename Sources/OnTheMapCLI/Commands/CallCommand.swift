import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap call METHOD [PARAMS]`: any RPC, for scripts.
struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "Call any daemon method; prints the result JSON, or the error JSON on stderr.",
        discussion: "Example: onthemap call students '{\"limit\":3}'\n\n\(ExitStatus.help)")

    @OptionGroup var global: GlobalOptions

    // Completed from the methods' declarations, the list `rpc.discover` answers with: no daemon needed.
    @Argument(
        help: "A method name (`onthemap call rpc.discover` lists them).",
        completion: .custom { _, _, prefix in OnTheMapMethods.all.map { $0.method }.filter { $0.hasPrefix(prefix) } })
    var method: String

    @Argument(help: "Named params as a JSON object.")
    var params: String?

    /// PARAMS, parsed here (not in `run`): a usage error is printed as one, with the usage line.
    func validate() throws {
        if let params, (try? WireCoding.decode(WireJSON.self, from: params.utf8)) == nil {
            throw ValidationError("PARAMS is not JSON: give named params as an object, e.g. '{\"limit\":3}'.")
        }
    }

    func run() throws {
        let parsed = params.flatMap { try? WireCoding.decode(WireJSON.self, from: $0.utf8) }
        do {
            switch try global.connect().call(method, params: parsed) {
            case .success(let result):
                try Output.json(result)
            case .failure(let error):
                Output.error(String(decoding: try WireCoding.encode(error), as: UTF8.self))
                throw CLIFailure.status(for: error)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw CLIFailure.exit(for: error)
        }
    }
}
