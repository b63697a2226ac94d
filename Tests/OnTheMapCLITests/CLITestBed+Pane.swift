import OnTheMapTestSupport
import Testing

extension CLITestBed {
    /// A bed for a test of what a person sees in a tmux pane (`paneEnvironment`); nil, with an issue
    /// recorded, when tmux is not installed (the test then fails, saying what to install, rather than
    /// passing unseen).
    static func forPane(sourceLocation: SourceLocation = #_sourceLocation) throws -> CLITestBed? {
        guard TmuxSession.isAvailable else {
            Issue.record("tmux is not installed (apt-get install tmux)", sourceLocation: sourceLocation)
            return nil
        }
        return try CLITestBed()
    }

    /// The bed's environment in a pane: no `COLUMNS`, so the width is the pane's own, as in a
    /// person's terminal; a UTF-8 locale.
    var paneEnvironment: [String: String] {
        var environment = environment
        environment["COLUMNS"] = nil
        environment["LANG"] = "C.UTF-8"
        return environment
    }
}
