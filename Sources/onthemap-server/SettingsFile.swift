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
enum SettingsFile {
    /// Keys every database command accepts; `serve` accepts all of its options.
    static let databaseKeys: Set<String> = ["db", "database", "pool-size"]

    static func expand(_ arguments: [String], environment: [String: String]) throws -> [String] {
        guard let subcommand = arguments.first, !subcommand.hasPrefix("-"),
            ["serve", "migrate", "seed", "user", "pin", "session", "backup", "restore"].contains(subcommand)
        else { return arguments }
        // `user add` and the like: the settings go after the last subcommand word.
        let commandWords = arguments.prefix { !$0.hasPrefix("-") }
        let rest = arguments.dropFirst(commandWords.count)
        var settings: [String] = []
        if let path = configPath(in: Array(rest), environment: environment) {
            settings += try Self.settings(fromFile: path, acceptingAll: subcommand == "serve")
        }
        if let url = environment["ONTHEMAP_DATABASE_URL"], !url.isEmpty {
            settings += ["--database", url]
        }
        return Array(commandWords) + settings + rest
    }

    private static func configPath(in arguments: [String], environment: [String: String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--config=") { return String(argument.dropFirst("--config=".count)) }
        }
        if let path = environment["ONTHEMAP_SERVER_CONFIG"], !path.isEmpty { return path }
        return nil
    }

    static func settings(fromFile path: String, acceptingAll: Bool) throws -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("Cannot read the settings file \(path).")
        }
        let lines: [SettingsLines.Setting]
        do {
            lines = try SettingsLines.parse(text)
        } catch {
            throw ValidationError("\(path) line \(error.line): expected `key = value`.")
        }
        var arguments: [String] = []
        for setting in lines {
            let (key, value) = (setting.key, setting.value)
            guard key != "config", key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw ValidationError("\(path) line \(setting.line): `\(key)` is not an option name.")
            }
            guard acceptingAll || databaseKeys.contains(key) else { continue }
            switch value.lowercased() {
            case "true", "yes", "on": arguments.append("--\(key)")
            case "false", "no", "off": continue
            default: arguments += ["--\(key)", value]
            }
        }
        return arguments
    }
}
