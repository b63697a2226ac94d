import OnTheMapModels

import Glibc

/// Opens a link from the full-screen map without letting the opener write on the screen: its output
/// goes to a file, and what it said comes back as one line for the status line. `xdg-open` with no
/// browser writes eight lines to stderr, which scrolled the map.
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
        switch outcome {
        case .cannotRun(let reason):
            let hint = opener == "xdg-open" ? " (install xdg-utils, or set ONTHEMAP_OPENER)" : ""
            return "cannot run \(opener) to open \(url): \(reason)\(hint)"
        case .failed(let how):
            // What the opener said comes first after the status: the status line is one terminal line.
            guard let said = firstLine(of: output) else { return "\(opener) could not open \(url) (\(how))" }
            return "could not open the link (\(how)): \(said)"
        case .opened:
            return "opened \(url)"
        }
    }

    /// The first line the opener wrote that says something, at most 200 bytes of it.
    private static func firstLine(of descriptor: Int32) -> String? {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        return text.split(separator: "\n").map { String($0).trimmingWhitespace() }.first { !$0.isEmpty }
            .map { String($0.prefix(200)) }
    }
}
