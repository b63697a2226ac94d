import ArgumentParser
import Foundation
import OnTheMapServer
import OnTheMapSupport

/// How `onthemap-server` ends on an error: one line on standard error, and one exit status scheme
/// for every subcommand — 0 done, 1 failed, 64 a mistake in the command line or the settings file.
/// Only a mistake in the command line is followed by the usage text (ArgumentParser prints it).
enum Failure {
    /// Exit status for a usage or settings mistake (sysexits' EX_USAGE).
    static let usage: Int32 = 64

    /// What every message on standard error begins with.
    static let prefix = "onthemap-server: "

    /// Prints `onthemap-server: message` (on one line) and exits with `status`.
    static func fail(_ message: String, status: Int32) -> Never {
        let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        FileHandle.standardError.write(Data((prefix + line + "\n").utf8))
        exit(status)
    }

    /// Ends on what ArgumentParser reports (a mistake in the command line, help, the version): as it
    /// would, but after `prefix` instead of its "Error: ".
    static func failParsing(_ error: any Error) -> Never {
        ArgumentFailure.exit(error, of: OnTheMapServerCommand.self, prefix: prefix)
    }

    /// Ends the process for an error thrown while a command ran (its arguments had parsed): never
    /// with the usage text, which would suggest the command line was wrong.
    static func fail(for error: any Error) -> Never {
        switch error {
        case let error as ValidationError:
            fail(error.message, status: usage)
        case is ExitCode, is CleanExit:
            failParsing(error)
        case let error as CommandError:
            fail(error.description, status: 1)
        case _ where String(reflecting: type(of: error)).hasPrefix("ArgumentParser."):
            // `--help` after a subcommand is answered by running ArgumentParser's help command, which
            // throws its request: ArgumentParser prints the help (status 0).
            failParsing(error)
        default:
            fail(describeStorageFailure(error), status: 1)
        }
    }
}
