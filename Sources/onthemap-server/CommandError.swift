/// A failure a command reports in one sentence (exit status 1), without the usage text that
/// ArgumentParser adds to a `ValidationError` (which is for mistakes in the command line).
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
