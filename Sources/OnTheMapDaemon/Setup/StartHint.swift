import FoundationEssentials
import Glibc
import OnTheMapAPI
import OnTheMapSupport
import SystemPackage

/// The word a daemon started by hand leaves beside its socket, `SOCKET.how-to-start`: the command
/// line it was started with, so a client that finds nothing answering there can say how to start it
/// again with the same `--api-url` (OnTheMapClient's `StartAdvice` reads it). A socket-activated
/// daemon, or one systemd started, leaves none (and takes away an older one): systemd starts it again.
///
/// Left when the daemon stops, normally or not: that is when the word is needed (a daemon stopped
/// with Ctrl-C is started again with its `--api-url`, not against Udacity's). The next start by
/// hand writes its own; `make demo` writes its own word, `make demo`, after starting the daemon.
enum StartHint {
    /// The settings `onthemapd` reads from its environment: part of how it was started. The XDG
    /// folders say where its session, cache and settings are (started again without them, a demo's
    /// daemon came back logged out).
    static let environmentSettings = [
        "ONTHEMAP_SOCKET", "ONTHEMAP_API_URL", "ONTHEMAP_CACHE_SIZE", "ONTHEMAP_REFRESH_INTERVAL", "ONTHEMAP_IDLE_TIMEOUT",
        "ONTHEMAP_LOG_LEVEL", "ONTHEMAP_GEOCODER", "ONTHEMAP_NOMINATIM_URL", "ONTHEMAP_GEOCODER_FALLBACK",
        "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
    ]

    /// Writes the hint beside `socketPath` (0600, in the socket's private directory). A daemon
    /// systemd started (`activated` by its socket, or `INVOCATION_ID` set) takes away the word an
    /// earlier start by hand left: systemd starts it again. Nothing is written when the file cannot
    /// be (the advice is then the general one: nothing to fail the start for).
    static func leave(beside socketPath: String, activated: Bool, arguments: [String] = CommandLine.arguments,
                      environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = socketPath + ".how-to-start"
        guard !activated, environment["INVOCATION_ID"] == nil else {
            unlink(path)
            return
        }
        let line = commandLine(arguments: arguments, environment: environment, directory: FileManager.default.currentDirectoryPath)
        try? PrivateFile.writeNow(Array((line + "\n").utf8), to: FilePath(path))
    }

    /// `cd DIR && ONTHEMAP_API_URL=… /path/onthemapd --socket … --api-url …`, each word quoted for a
    /// POSIX shell. `cd` only when a path in it is relative to the directory it was started in. A
    /// URL's user and password are left out: the file must hold no secret.
    static func commandLine(arguments: [String], environment: [String: String], directory: String) -> String {
        var words: [String] = []
        var relative = false
        // A flag wins over its variable, so a variable whose flag is given is no part of how the
        // daemon was started (written too, the command named two sockets).
        let given = Set(arguments.dropFirst().map { split($0).0 })
        for name in environmentSettings {
            guard let value = environment[name], !given.contains(flag(of: name)) else { continue }
            if name == "ONTHEMAP_SOCKET", !value.hasPrefix("/") { relative = true }
            words.append(name + "=" + ShellWord.quoted(APIConfiguration.withoutUserInfo(value)))
        }
        var program = arguments.first ?? "onthemapd"
        if program.contains("/"), !program.hasPrefix("/") { program = FilePath(directory).appending(program).string }
        words.append(ShellWord.quoted(program))
        var takesPath = false
        for argument in arguments.dropFirst() {
            let (option, value) = split(argument)
            if takesPath, !argument.hasPrefix("/") { relative = true }
            if let value, ["--socket", "--config"].contains(option), !value.hasPrefix("/") { relative = true }
            takesPath = ["--socket", "--config"].contains(argument)
            words.append(ShellWord.quoted(value.map { option + "=" + APIConfiguration.withoutUserInfo($0) } ?? APIConfiguration.withoutUserInfo(argument)))
        }
        let command = words.joined(separator: " ")
        return relative ? "cd " + ShellWord.quoted(directory) + " && " + command : command
    }

    /// The flag that overrides an `ONTHEMAP_` variable (`ONTHEMAP_API_URL`: `--api-url`); none for
    /// the XDG folders.
    static func flag(of variable: String) -> String {
        guard variable.hasPrefix("ONTHEMAP_") else { return "" }
        return "--" + variable.dropFirst("ONTHEMAP_".count).lowercased().replacing("_", with: "-")
    }

    /// `--name=value` as its two parts; any other word as itself.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
