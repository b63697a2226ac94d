import OnTheMapModels

import Glibc

/// Opens a link from the full-screen map without letting the opener write on the screen: its output
/// goes to a file, unread, and the status line says what `onthemap open` says. `xdg-open` with no
/// browser writes eight lines to stderr, which scrolled the map; its first ("www-browser: not found")
/// is one of its attempts, not why it failed.
enum QuietOpener {
    /// Runs `$ONTHEMAP_OPENER` (else `xdg-open`) on `url` and waits for it; the message to show.
    static func open(_ link: String) -> String {
        // Links are data: only an http(s) URL reaches the opener, as with `onthemap open` (the
        // daemon drops others; this holds for an older one too).
        guard let url = WebLink.opening(link) else { return URLOpener.refusal(link, student: nil).message }
        let opener = URLOpener.program
        // A file, not a pipe: a browser the opener starts may hold its output open for hours.
        var template = Array("/tmp/onthemap-opener-XXXXXX".utf8CString)
        let output = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard output >= 0 else { return "cannot open \(url): no temporary file (\(String(cString: strerror(errno))))" }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        defer { close(output) }

        let outcome = URLOpener.run(opener, on: url) { actions in
            // No keys for it: the terminal is in raw mode for the map.
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, output, 2)
        }
        return URLOpener.failure(outcome, opener: opener, url: url) ?? "opened \(url)"
    }
}
