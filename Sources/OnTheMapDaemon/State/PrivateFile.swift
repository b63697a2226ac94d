import Foundation
import SystemPackage

/// Writes a file atomically (temp file, fsync, rename) with mode 0600 in a 0700 directory.
enum PrivateFile {
    static func write(_ data: Data, to path: String) throws {
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

    static func remove(_ path: String) {
        unlink(path)
    }
}
