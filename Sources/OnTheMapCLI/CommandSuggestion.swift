import ArgumentParser
import OnTheMapSupport

/// A command name that is not one: "onthemap stauts" is told about `status`, as a mistyped option is
/// told about the option meant (ArgumentParser does that for options only).
enum CommandSuggestion {
    /// The usage error for `word` in the place of a command, or nil when it is a command (or an
    /// option, left to ArgumentParser).
    static func error(for word: String, commands: [String]) -> ValidationError? {
        guard !word.hasPrefix("-"), !commands.contains(word), word != "help" else { return nil }
        if let command = NearestWord.to(word, among: commands) {
            return ValidationError("Unknown command '\(word)'. Did you mean '\(command)'?")
        }
        return ValidationError("Unknown command '\(word)'. `onthemap --help` lists the commands.")
    }
}
