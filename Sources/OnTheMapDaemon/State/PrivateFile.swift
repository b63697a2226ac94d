import Dispatch
import Glibc
import OnTheMapModels
import OnTheMapSupport
import SystemPackage

/// The daemon's state files (session, student cache): written atomically (temp file, fsync,
/// rename) with mode 0600 in a 0700 directory.
///
/// Writes and removals run one after the other on a queue of their own, in the order they were
/// asked for, so a logout's removal can never be overtaken by the write of a refresh begun before
/// it (both run on the caller's executor until they reach the queue, so an actor's requests keep
/// its order). Off the event loops, which run the daemon's actors (`EventLoopConcurrency`): an fsync there
/// would hold up every connection of that loop (see `DispatchQueue.perform`).
enum PrivateFile {
    private static let queue = DispatchQueue(label: "onthemap.state-files")

    /// Returns once `bytes` are on disk at `path`.
    nonisolated(nonsending) static func write(_ bytes: [UInt8], to path: FilePath) async throws {
        try await queue.perform { try writeNow(bytes, to: path) }
    }

    /// Asks for the write of `value` (encoded on the files' queue) and returns at once; `failed` is
    /// called there when it cannot be written. For the student cache: a refresh answers without
    /// waiting for the file of a list of 10,000 (3 MB, ~0.1 s), and a removal asked for after this
    /// call still comes after the write.
    static func writeSoon(
        _ value: some Encodable & Sendable, to path: FilePath, failed: @escaping @Sendable (any Error) -> Void
    ) {
        queue.async {
            do { try writeNow(try WireCoding.encode(value), to: path) } catch { failed(error) }
        }
    }

    /// Returns once every write asked for before is on disk (a stopping daemon keeps its cache).
    static func finishWrites() async {
        await queue.perform {}
    }

    /// The whole file at `path`, or nil when it cannot be read.
    static func read(_ path: FilePath) -> [UInt8]? {
        guard let file = try? FileDescriptor.open(path, .readOnly) else { return nil }
        return try? file.closeAfter {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
                if count == 0 { return bytes }
                bytes += chunk[..<count]
            }
        }
    }

    /// Returns once `path` is removed, after every write asked for before.
    nonisolated(nonsending) static func remove(_ path: FilePath) async {
        await queue.perform { _ = unlink(path.string) }
    }

    /// Writes `bytes` to `path` (0600) whole or not at all, now, on the caller's thread.
    static func writeNow(_ bytes: [UInt8], to path: FilePath) throws {
        try makeDirectories(path.removingLastComponent())
        let temporary = FilePath(path.string + ".tmp-\(getpid())")
        do {
            let file = try FileDescriptor.open(
                temporary, .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
            try file.closeAfter {
                _ = try file.writeAll(bytes)
                // swift-system has no fsync or rename: the two calls it leaves to Glibc.
                guard fsync(file.rawValue) == 0 else { throw Errno(rawValue: errno) }
            }
            guard rename(temporary.string, path.string) == 0 else { throw Errno(rawValue: errno) }
        } catch {
            unlink(temporary.string)
            throw error
        }
    }

    /// Makes the folder that holds `path` private (0700) when it is ours and others may read or
    /// enter it: the files in it are 0600, but a folder others can write lets them replace those
    /// files. Returns what was done, for the log; nil when nothing was (missing, private already, or
    /// not ours: then a write there fails and says so).
    static func tightenDirectory(of path: FilePath) -> String? {
        let directory = path.removingLastComponent()
        guard let info = try? Stat(directory, followTargetSymlink: false), info.type == .directory,
            info.userID.rawValue == geteuid(), !info.permissions.isDisjoint(with: [.groupReadWriteExecute, .otherReadWriteExecute])
        else { return nil }
        let before = String(info.permissions.rawValue, radix: 8)
        guard chmod(directory.string, 0o700) == 0 else {
            return "the state folder \(directory) is open to others (mode \(before)) and could not be made private: \(Errno(rawValue: errno))"
        }
        return "the state folder \(directory) was open to others (mode \(before)); made it private (700)"
    }

    /// `directory` and the folders above it that are missing, each made private (0700).
    private static func makeDirectories(_ directory: FilePath) throws {
        guard !directory.isEmpty, (try? Stat(directory, followTargetSymlink: true)) == nil else { return }
        try makeDirectories(directory.removingLastComponent())
        guard mkdir(directory.string, 0o700) == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
    }
}
