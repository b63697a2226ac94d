import Glibc
import SystemPackage

/// Writes a file whole or not at all: into a new temporary file in the target's own folder, then
/// renamed over the target, so a reader (or a crash) never meets half a file. Only a regular file or
/// a new path is a target: writing "to" a symlink, a FIFO or a device would replace it with a
/// regular file (as root, `/dev/full` became one), so those are refused.
enum AtomicFile {
    /// Replaces `path` with `bytes`. A new file gets `mode` less the umask, an existing one keeps its
    /// permissions; with `exactMode`, the file has `mode` either way. A read-only file (no write
    /// permission for its owner, or none for us) is replaced only with `replacingReadOnly`: writing
    /// by a rename would otherwise go around the protection someone gave it (as `mv` asks first and
    /// `gzip` wants `-f`).
    static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t, exactMode: Bool = false, replacingReadOnly: Bool = true,
        forceOption: String = "--force"
    ) throws(CommandFailure) {
        let keptMode = try check(path, replacingReadOnly: replacingReadOnly, forceOption: forceOption)
        let folder = folder(of: path)
        var template = Array(folder.appending(".onthemap-XXXXXX").string.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw folderRefusal(errno, path: path, folder: folder) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let finalMode = exactMode ? mode : keptMode ?? mode & ~currentUmask()
        var failure: String?
        if !Output.writeAll(bytes, to: fd) {
            failure = String(cString: strerror(errno))
        } else if fchmod(fd, finalMode) != 0 || fsync(fd) != 0 {
            failure = String(cString: strerror(errno))
        }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw CommandFailure(message: "cannot write \(path): \(failure)")
        }
    }

    /// Refuses a path `write` would refuse for what is there (a folder's path, a symlink, a FIFO, a
    /// read-only file without `replacingReadOnly`), so a command can say so before the work of
    /// making the bytes; `write` checks again, as the path may change meanwhile. Returns an existing
    /// file's permissions, nil for a new path.
    @discardableResult
    static func check(_ path: String, replacingReadOnly: Bool = true, forceOption: String = "--force") throws(CommandFailure) -> mode_t? {
        // A folder's path names no file to write (and FilePath would drop the slash, as if a file in
        // the current folder were meant).
        guard !path.hasSuffix("/") else {
            throw CommandFailure(message: "\(path) ends in a slash, so it names a folder: give the path of a file to write")
        }
        let folder = folder(of: path)
        guard access(folder.string, W_OK | X_OK) == 0 else { throw folderRefusal(errno, path: path, folder: folder) }
        var existing = stat()
        guard lstat(path, &existing) == 0 else {
            guard errno == ENOENT else { throw CommandFailure(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
            return nil
        }
        guard existing.st_mode & S_IFMT == S_IFREG else {
            throw CommandFailure(message: "\(path) is \(kind(existing.st_mode)), not a regular file: give the path of a file to write")
        }
        let readOnly = existing.st_mode & S_IWUSR == 0 || access(path, W_OK) != 0
        if readOnly, !replacingReadOnly {
            let octal = String(existing.st_mode & 0o7777, radix: 8)
            throw CommandFailure(message: "\(path) is read-only (mode \(octal)): add \(forceOption) to replace it, or choose another path")
        }
        return existing.st_mode & 0o7777
    }

    /// The folder `path` is in: "." for a bare name.
    private static func folder(of path: String) -> FilePath {
        let parent = FilePath(path).removingLastComponent()
        return parent.isEmpty ? FilePath(".") : parent
    }

    /// Why no file can be made in `folder`, from the `errno` of trying.
    private static func folderRefusal(_ code: Int32, path: String, folder: FilePath) -> CommandFailure {
        switch code {
        case ENOENT where access(folder.string, F_OK) != 0:
            CommandFailure(message: "cannot write \(path): the folder \(folder) does not exist; create it first or choose another")
        // There, and still no file can be made in it: /proc, /sys.
        case ENOENT: CommandFailure(message: "cannot write \(path): \(folder) takes no new files; choose another folder")
        case ENOTDIR: CommandFailure(message: "cannot write \(path): \(folder) is not a folder")
        case EACCES, EPERM: CommandFailure(message: "cannot write \(path): you may not write in \(folder); choose another folder")
        default: CommandFailure(message: "cannot write \(path): \(String(cString: strerror(code)))")
        }
    }

    /// "a symbolic link", "a FIFO", …: what is at a path that is not a regular file.
    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFDIR: "a folder"
        case S_IFSOCK: "a socket"
        default: "something other than a file"
        }
    }

    /// The process's umask (reading it means setting it; set back at once).
    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}
