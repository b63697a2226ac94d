import ArgumentParser
import OnTheMapServer

/// The names `user add` and `user rename` take, checked by the rule the API applies to a pin's names
/// (`ShownText`), so the server never stores an account whose name no pin could carry.
enum AccountNames {
    /// Throws a usage error naming the option (`--first`) and what is wrong with its value.
    static func check(_ value: String, option: String) throws {
        guard value.count <= 100 else { throw ValidationError("\(option) is longer than 100 characters.") }
        if let problem = ShownText.problem(inName: value) { throw ValidationError("\(option) \(problem).") }
    }
}
