import Foundation
import OnTheMapModels
import SystemPackage

/// An access log: one JSON object per line, appended to a file (or written to stdout).
///
/// Holds only what identifies a request without exposing a secret: no headers but the user agent, no
/// query string, no body. Each line goes out in one `write(2)` on an `O_APPEND` descriptor, so lines
/// from concurrent requests never interleave.
public final class AccessLog: Sendable {
    /// One request, as logged.
    struct Entry: Encodable {
        var time: String
        var remote: String?
        var method: String
        var path: String
        var route: String?
        var status: Int
        var durationMs: Double
        var bytes: Int?
        var userAgent: String?
    }

    private let file: FileDescriptor
    private let ownsFile: Bool

    /// Opens `path` for appending (created 0600: client addresses are personal data); `-` is stdout.
    public init(path: String) throws {
        if path == "-" {
            file = .standardOutput
            ownsFile = false
        } else {
            do {
                file = try FileDescriptor.open(
                    FilePath(path), .writeOnly, options: [.append, .create, .closeOnExec], permissions: .ownerReadWrite)
            } catch {
                throw AccessLogError(path: path, reason: "\(error)")
            }
            ownsFile = true
        }
    }

    deinit {
        if ownsFile { try? file.close() }
    }

    func write(_ entry: Entry) {
        // `WireCoding`: keys sorted, so every line has them in one order, and paths with their slashes.
        // What clients sent (a path, a user agent) with C1 and bidi controls and line separators
        // escaped: a log is read on terminals (`tail`, `--access-log -`).
        guard var line = (try? WireCoding.encode(entry)).map(DisplayText.escapedInJSON) else { return }
        line.append(UInt8(ascii: "\n"))
        // One write(2), not a loop that could interleave with another request's line. A failed
        // write (disk full) must not fail the request; the line is lost.
        _ = line.withUnsafeBytes { bytes in try? file.write(bytes) }
    }

    /// What a client sent (its path, its user agent), at most `limit` UTF-8 bytes, with "…" where cut:
    /// a line stays under the 2 KB every log line keeps to (`BoundedLogHandler.maxLineBytes`), so a
    /// 60 KB user agent cannot write 60 KB to the disk per request.
    static func cut(_ text: String, to limit: Int = 600) -> String {
        var bytes = 0
        var kept = String.UnicodeScalarView()
        var cutAt: String.UnicodeScalarView?
        for scalar in text.unicodeScalars {
            // As JSON writes it: a control character takes six bytes (\u001B), a quote two.
            bytes += scalar.value < 0x20 ? 6 : scalar == "\"" || scalar == "\\" ? 2 : String(scalar).utf8.count
            if bytes > limit { return String(cutAt ?? kept) + "…" }
            if bytes > limit - 3, cutAt == nil { cutAt = kept }
            kept.append(scalar)
        }
        return text
    }

    /// An ISO 8601 UTC timestamp with milliseconds.
    static func timestamp(_ date: Date = Date()) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}

/// The access log file cannot be opened.
public struct AccessLogError: Error, CustomStringConvertible {
    var path: String
    var reason: String

    public var description: String { "Cannot open the access log \(path): \(reason)" }
}
