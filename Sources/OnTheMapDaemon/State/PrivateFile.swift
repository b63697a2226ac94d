import Dispatch
import Foundation
import OnTheMapModels
import SystemPackage

/// The daemon's state files (session, student cache): written atomically (temp file, fsync,
/// rename) with mode 0600 in a 0700 directory.
///
/// Writes and removals run one after the other on a queue of their own, in the order they were
/// asked for, so a logout's removal can never be overtaken by the write of a refresh begun before
/// it. Off the event loops, which run the daemon's actors (`EventLoopConcurrency`): an fsync there
/// would hold up every connection of that loop (see `DispatchQueue.perform`).
enum PrivateFile {
    private static let queue = DispatchQueue(label: "onthemap.state-files")

    /// Returns once `data` is on disk at `path`.
    static func write(_ data: Data, to path: String) async throws {
        try await queue.perform { try writeNow(data, to: path) }
    }

    /// Returns once `path` is removed, after every write asked for before.
    static func remove(_ path: String) async {
        await queue.perform { _ = unlink(path) }
    }

    private static func writeNow(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".tmp-\(getpid())"
        do {
            let file = try FileDescriptor.open(
                FilePath(temporary), .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
            try file.closeAfter {
                _ = try file.writeAll(data)
                // swift-system has no fsync or rename: the two calls it leaves to Glibc.
                guard fsync(file.rawValue) == 0 else { throw Errno(rawValue: errno) }
            }
            guard rename(temporary, path) == 0 else { throw Errno(rawValue: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
