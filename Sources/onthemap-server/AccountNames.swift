import ArgumentParser
import OnTheMapModels
import OnTheMapServer

/// The names `user add` and `user rename` take, checked by the rule the API applies to a pin's names
/// (`ShownText`), so the server never stores an account whose name no pin could carry.
enum AccountNames {
    /// Throws a usage error naming the option (`--first`) and what is wrong with its value.
    static func check(_ value: String, option: String) throws {
        if let problem = ShownText.problem(inName: value) { throw ValidationError("\(option) \(problem).") }
    }

    /// Throws a usage error unless `value` is an email address with nothing in it that acts on a
    /// terminal or reorders text (`user list` shows it).
    static func checkEmail(_ value: String) throws {
        guard value.contains("@") else { throw ValidationError("--email must be an email address.") }
        guard value.utf8.count <= ShownText.maxEmailBytes else {
            throw ValidationError("--email is longer than an email address can be (\(ShownText.maxEmailBytes) bytes).")
        }
        if let problem = ShownText.problem(in: value, kind: .email) { throw ValidationError("--email \(problem).") }
    }
}
