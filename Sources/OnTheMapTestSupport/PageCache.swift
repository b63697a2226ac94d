import Foundation

/// How much of a file the kernel holds in its page cache, and a copy of a file that it holds none of.
public enum PageCache {
    /// Bytes of `path` in the page cache, as util-linux's `fincore` counts them.
    public static func residentBytes(of path: String) throws -> Int {
        let result = try runCommand("/usr/bin/fincore", ["--bytes", "--noheadings", "--output", "RES", path])
        guard result.status == 0, let bytes = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServerProcessError(message: "fincore \(path): \(result.stdout)\(result.stderr)")
        }
        return bytes
    }

    /// Copies an executable to `destination` and drops the copy from the page cache, as after a
    /// reboot: what of it is cached later, the process that runs it read. Returns `destination`.
    public static func uncachedCopy(of source: String, to destination: String) throws -> String {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        let fd = open(destination, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ServerProcessError(message: "open \(destination): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        // Written pages are dirty until written back, and only clean ones can be dropped.
        fsync(fd)
        posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
        return destination
    }
}
