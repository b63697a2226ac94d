import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// `onthemap call METHOD [PARAMS]`: any RPC, for scripts.
struct CallCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "Call any daemon method; prints the result JSON, or the error JSON on stderr.",
        discussion: """
            Example: onthemap call students '{"limit":3}'. A method the daemon does not have is said in \
            words instead, with the nearest it has ("did you mean status?").

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    // Completed from the methods' declarations, the list `rpc.discover` answers with: no daemon needed.
    @Argument(
        help: "A method name (`onthemap call rpc.discover` lists them).",
        completion: .custom { _, _, prefix in OnTheMapMethods.all.map { $0.method }.filter { $0.hasPrefix(prefix) } })
    var method: String

    @Argument(help: "Named params as a JSON object.")
    var params: String?

    // What `call` prints is JSON already: taken so that `--json` works with every command.
    @Flag(help: "The result as JSON (what call always prints).")
    var json = false

    /// PARAMS, parsed here (not in `run`): a usage error is printed as one, with the usage line.
    func validate() throws {
        if let params, (try? WireCoding.decode(WireJSON.self, from: params.utf8)) == nil {
            throw ValidationError("PARAMS is not JSON: give named params as an object, e.g. '{\"limit\":3}'.")
        }
    }

    func execute() throws {
        let parsed = params.flatMap { try? WireCoding.decode(WireJSON.self, from: $0.utf8) }
        let connection = try global.connect()
        switch try connection.call(method, params: parsed) {
        case .success(let result):
            try Output.json(result)
        case .failure(let error) where error.code == RPCError.methodNotFoundCode:
            // A mistyped name is a person's mistake, said as one (exit status 1, as every error
            // the daemon answers), not the protocol's error object.
            throw CommandFailure(message: Self.noSuchMethod(method, among: Self.methods(of: connection)))
        case .failure(let error):
            Output.error(String(decoding: try Output.jsonBytes(error), as: UTF8.self))
            throw CLIFailure.status(for: error)
        }
    }

    /// "onthemapd has no method "stauts"; did you mean status?"
    static func noSuchMethod(_ method: String, among methods: [String]) -> String {
        let name = "onthemapd has no method \"\(DisplayText.clean(method))\""
        guard let meant = NearestWord.to(method, among: methods) else { return name + "; `onthemap call rpc.discover` lists them" }
        return name + "; did you mean \(meant)?"
    }

    /// The daemon's own methods, as it lists them (it may be of another version than this client);
    /// this client's when it does not say.
    static func methods(of connection: RPCConnection) -> [String] {
        let listed = (try? connection.result(DiscoverParams()))?["methods"].flatMap { methods -> [String]? in
            guard case .array(let entries) = methods else { return nil }
            return entries.compactMap { $0["name"]?.stringValue }
        }
        return listed ?? OnTheMapMethods.all.map { $0.method }
    }
}
