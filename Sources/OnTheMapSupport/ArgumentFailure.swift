import ArgumentParser
import Glibc

/// How each program ends on what ArgumentParser reports (a mistyped command or option, a bad value,
/// a `ValidationError`) or on an error thrown while it ran: the message after the program's own
/// prefix ("onthemap: unknown option '--limt'", "onthemapd: Unknown option …"), as every other
/// message of the program begins, instead of ArgumentParser's "Error: ". The usage text and its suggestion follow as ArgumentParser
/// writes them, the exit status is its own (64 for usage), and help, `--version` and completion
/// scripts go to standard output unchanged (status 0). Only ArgumentParser's public API is used.
public enum ArgumentFailure {
    /// What `command` would print for `error`, the "Error: " replaced by `prefix`; and where, and
    /// with which status. `lowercased`: the message begun in lower case (`continuingThePrefix`), for
    /// a program whose messages are written so (onthemap's); the server's and the daemon's are
    /// sentences.
    public static func report(
        _ error: any Error, of command: any ParsableCommand.Type, prefix: String, lowercased: Bool = false
    ) -> (text: String, toStandardOutput: Bool, status: Int32) {
        let status = command.exitCode(for: error).rawValue
        let full = command.fullMessage(for: error)
        // Help, the version, a completion script: as ArgumentParser prints them.
        if status == 0 { return (full, true, 0) }
        let message = command.message(for: error)
        // `full` is ArgumentParser's prefix, the message, then (for a usage error) the usage text.
        guard !message.isEmpty, let range = full.firstRange(of: message) else { return (full, false, status) }
        return (prefix + (lowercased ? continuingThePrefix(message) : message) + full[range.upperBound...], false, status)
    }

    /// Prints what `report` gives and exits with its status.
    public static func exit(_ error: any Error, of command: any ParsableCommand.Type, prefix: String, lowercased: Bool = false) -> Never {
        let (text, toStandardOutput, status) = report(error, of: command, prefix: prefix, lowercased: lowercased)
        if !text.isEmpty {
            if toStandardOutput {
                print(text)
            } else {
                let bytes = Array((text + "\n").utf8)
                _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            }
        }
        Glibc.exit(status)
    }

    /// A sentence after "program: ", begun in lower case as the programs' own messages are there
    /// ("onthemap: unknown command …" beside "onthemap: not logged in"); a first word that is a
    /// name or an abbreviation (capitals inside: "PARAMS", "OnTheMap", "API") keeps its case.
    public static func continuingThePrefix(_ sentence: String) -> String {
        let word = sentence.prefix { $0.isLetter }
        guard let first = word.first, first.isUppercase, word.count > 1, word.dropFirst().allSatisfy(\.isLowercase) else { return sentence }
        return first.lowercased() + sentence.dropFirst()
    }
}
