import FoundationEssentials
import OnTheMapModels

import Glibc
import OnTheMapSupport

/// Opens a web link with `$ONTHEMAP_OPENER`, else `xdg-open`, and waits for it: an opener that is
/// missing or fails is a failure (exit status 1), not a usage error.
///
/// Links are data, never commands: whatever a student posted, only an http(s) URL is opened
/// (`WebLink.opening`: parsed, trimmed, the scheme compared in any case), so `file:`, `javascript:`,
/// `data:` or `ssh:` links never reach the opener. The link is the opener's one argument after its
/// name, with no `--` before it: xdg-open takes none (xdg-utils 1.1.3 answers "unexpected option
/// '--'" and exits 1), and an http(s) URL starts with a letter, so it can never read as an option.
enum URLOpener {
    /// Opens `link`, the link of `student` (named when it is refused), and returns the URL opened.
    /// `dropped`: why the daemon dropped the link, when it did (`StudentLocation.mediaURLDropped`).
    /// `announce`: say "opened URL" on stderr (not while a full-screen map owns the terminal).
    /// `json`: stdout is `--json`'s alone, so what the opener prints goes to stderr.
    @discardableResult
    static func open(
        _ link: String, dropped: String? = nil, announce: Bool = true, student: String? = nil, json: Bool = false
    ) throws -> String {
        guard let url = WebLink.opening(link) else { throw refusal(link, dropped: dropped, student: student) }
        let opener = program
        let outcome = run(opener, on: url) { actions in
            if json { posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO) }
        }
        if let failure = failure(outcome, opener: opener, url: url) { throw CommandFailure(message: failure) }
        if announce { Output.error("opened \(DisplayText.clean(url))") }
        return url
    }

    /// What a run of `opener` on `url` that did not open it means, for a person, in the same words
    /// wherever a link is opened (`open N`, map -i's Enter): the link is in it, to be opened by hand
    /// (over ssh there is no browser). Nil when it opened.
    static func failure(_ outcome: Outcome, opener: String, url: String) -> String? {
        switch outcome {
        case .cannotRun(let reason):
            let hint = (opener == "xdg-open" ? "install xdg-utils, or " : "")
                + "set ONTHEMAP_OPENER to a program that opens links"
            return "cannot run \(opener) to open \(url) (\(reason)): \(hint)"
        case .failed(let how):
            return "\(opener) failed to open \(url) (\(how)): open it in a browser yourself"
        case .opened:
            return nil
        }
    }

    /// The program that opens links: `$ONTHEMAP_OPENER`, unless unset or empty, else `xdg-open`.
    static var program: String {
        Terminal.environment("ONTHEMAP_OPENER").flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
    }

    /// How a run of the opener ended: it could not start (why, as `strerror` says), it failed
    /// ("exit status 3", "signal 9"), or it opened the link.
    enum Outcome { case cannotRun(String), failed(String), opened }

    /// Runs `opener url`, its standard streams as `redirect` sets them, and waits for it.
    static func run(_ opener: String, on url: String, redirect: (inout posix_spawn_file_actions_t) -> Void) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        redirect(&actions)
        var arguments = [strdup(opener), strdup(url), nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, opener, &actions, nil, &arguments, environ)
        guard spawned == 0 else { return .cannotRun(String(cString: strerror(spawned))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        if exited, code == 0 { return .opened }
        return .failed(exited ? "exit status \(code)" : "signal \(status & 0x7f)")
    }

    /// Why a link was not opened, naming the student and the reason (`WebLink.problem`, the daemon's
    /// when it dropped the link: `dropped`); the link shown only as far as it is printable.
    static func refusal(_ link: String, dropped: String? = nil, student: String?) -> CommandFailure {
        let whose = student.map { DisplayText.clean($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let trimmed = link.trimmingWhitespace()
        let what = whose.map { $0 + "'s link" } ?? "the link"
        guard !trimmed.isEmpty else {
            if let dropped = dropped.map({ DisplayWidth.truncate(DisplayText.clean($0), to: 100) }), !dropped.isEmpty {
                return CommandFailure(message: "not opening \(what): \(dropped)")
            }
            return CommandFailure(message: "\(whose ?? "this student") has no web link to open (only http and https links are kept)")
        }
        let shown = DisplayWidth.truncate(DisplayText.clean(trimmed), to: 60)
        let why = WebLink.problem(trimmed) ?? "it is not an http:// or https:// address"
        return CommandFailure(message: "not opening \(what) \"\(shown)\": \(why)")
    }
}
