import ArgumentParser

extension NumberRange {
    /// A usage error (exit status 64, after the usage line) naming the range, when `value` is out of
    /// it: the one check `onthemap`, `onthemapd` and `onthemap-server` run on their number options.
    public func validate(_ value: Number?, _ option: String) throws {
        if let problem = problem(value, option) { throw ValidationError(problem) }
    }
}
