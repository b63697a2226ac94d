import ArgumentParser
import Foundation
import OnTheMapModels
import OnTheMapSupport

/// Settings that do not come from flags: the file named by `--config` (or `ONTHEMAP_SERVER_CONFIG`) and
/// `ONTHEMAP_DATABASE_URL`, turned into arguments placed before the command line's own, so that a flag
/// overrides the environment, which overrides the file.
///
/// The file holds `key = value` lines, `#` comments and blank lines (`SettingsLines`, as `onthemapd`
/// reads its own); a key is a long option's name
/// (`database`, `port`, `pins-per-account` …), and `true`/`false` set or leave a flag (`open-writes = true`).
/// One file serves every command: `serve` takes all of its keys, the other commands only the
/// database's (`databaseKeys`) and pass over the rest.
enum SettingsFile {
    /// Keys every database command accepts; `serve` accepts all of its options.
    static let databaseKeys: Set<String> = ["db", "database"]

    /// The keys a command takes from the file (nil: all, for `serve`); it passes over the others.
    /// `commandWords` may end with positional arguments (`user passwd ada@example.com`).
    static func acceptedKeys(_ commandWords: [String]) -> Set<String>? {
        if commandWords.first == "serve" { return nil }
        if commandWords.starts(with: ["user", "add"]) || commandWords.starts(with: ["user", "passwd"]) {
            return databaseKeys.union(["min-password-length"])
        }
        return databaseKeys
    }

    /// One line of the settings file, as the arguments it became.
    struct Setting {
        var path: String
        var line: Int
        var key: String
        var value: String
        var arguments: [String]
    }

    /// The command line with the settings in front of its options.
    struct Expansion {
        /// The subcommand words (`user add`).
        var commandWords: [String]
        var fileSettings: [Setting]
        /// From `ONTHEMAP_DATABASE_URL`.
        var environment: [String]
        /// The command line after the subcommand words.
        var rest: [String]

        var arguments: [String] { commandWords + fileSettings.flatMap(\.arguments) + environment + rest }

        /// When the command line parses without the file's settings but not with them, the first setting
        /// that breaks it, as a message naming the file and line; nil when the command line itself is
        /// wrong (ArgumentParser's message and usage text say best how).
        func blame(_ error: any Error, parse: @escaping ([String]) throws -> Any) -> String? {
            guard !fileSettings.isEmpty else { return nil }
            func fails(_ arguments: [String]) -> (any Error)? {
                do { _ = try parse(arguments) } catch { return error }
                return nil
            }
            let around = (before: commandWords, after: environment + rest)
            guard fails(around.before + around.after) == nil else { return nil }
            for setting in fileSettings {
                guard let error = fails(around.before + setting.arguments + around.after) else { continue }
                let place = "\(setting.path) line \(setting.line)"
                // A switch given a value: `open-writes = nope` became `--open-writes nope`.
                if setting.arguments.count == 2, fails(around.before + ["--\(setting.key)"] + around.after) == nil {
                    return "\(place): `\(setting.key)` is a switch: write `\(setting.key) = true` or `false`, not `\(setting.value)`."
                }
                return "\(place): `\(setting.key) = \(setting.value)`: \(OnTheMapServerCommand.message(for: error))"
            }
            return nil
        }
    }

    /// A settings file that cannot be read (status 1) or that is not `key = value` lines (status 64).
    struct FileError: Error, CustomStringConvertible {
        var description: String
        var status: Int32
    }

    /// The subcommands that take `--config` and `--db`/`--database`.
    static let databaseCommands: Set<String> = ["serve", "migrate", "seed", "user", "pin", "session", "backup", "restore"]

    static func expand(_ arguments: [String], environment: [String: String]) throws(FileError) -> Expansion {
        // `user add` and the like: the settings go after the last subcommand word.
        let commandWords = Array(arguments.prefix { !$0.hasPrefix("-") })
        let rest = Array(arguments.dropFirst(commandWords.count))
        guard let subcommand = commandWords.first, databaseCommands.contains(subcommand) else {
            return Expansion(commandWords: [], fileSettings: [], environment: [], rest: arguments)
        }
        var settings: [Setting] = []
        if let path = configPath(in: rest, environment: environment) {
            settings = try Self.settings(fromFile: path, accepting: acceptedKeys(commandWords))
        }
        var fromEnvironment: [String] = []
        if let url = environment["ONTHEMAP_DATABASE_URL"], !url.isEmpty {
            fromEnvironment = ["--database", url]
        }
        return Expansion(commandWords: commandWords, fileSettings: settings, environment: fromEnvironment, rest: rest)
    }

    private static func configPath(in arguments: [String], environment: [String: String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--config=") { return String(argument.dropFirst("--config=".count)) }
        }
        if let path = environment["ONTHEMAP_SERVER_CONFIG"], !path.isEmpty { return path }
        return nil
    }

    static func settings(fromFile path: String, accepting: Set<String>?) throws(FileError) -> [Setting] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it is not readable UTF-8 text" : "there is no such file"
            throw FileError(description: "Cannot read the settings file \(path): \(reason).", status: 1)
        }
        let lines: [SettingsLines.Setting]
        do {
            lines = try SettingsLines.parse(text)
        } catch {
            throw FileError(description: "\(path) line \(error.line): expected `key = value`.", status: Failure.usage)
        }
        var settings: [Setting] = []
        for line in lines {
            let (key, value) = (line.key, line.value)
            guard key != "config", key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw FileError(
                    description: "\(path) line \(line.line): `\(key)` is not an option name.", status: Failure.usage)
            }
            guard accepting?.contains(key) ?? true else { continue }
            let arguments: [String]
            switch value.lowercased() {
            case "true", "yes", "on": arguments = ["--\(key)"]
            case "false", "no", "off": arguments = []
            default: arguments = ["--\(key)", value]
            }
            settings.append(Setting(path: path, line: line.line, key: key, value: value, arguments: arguments))
        }
        return settings
    }
}
