import Foundation
import OnTheMapTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `export` writes a regular file or a new path, whole or not at all, and says in words why it
/// could not (#32.5): a symlink, a FIFO or a device is left as it was, and a missing folder is exit
/// status 1 with a sentence, not a `CocoaError` dump with 64.
@Suite("export's target", .ownThreads)
struct ExportTargetTests {
    @Test func writesRegularFilesWholeAndRefusesEverythingElse() throws {
        let bed = try CLITestBed()
        let folder = bed.cacheHome.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

        // A new path, then the same path again: replaced whole, its permissions kept.
        let page = folder + "/students.html"
        #expect(try bed.run(["export", "--html", page]).status == 0)
        chmod(page, 0o640)
        let again = try bed.run(["export", "--svg", page])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).hasPrefix("<?xml"), "the SVG replaced the HTML")
        #expect((try FileManager.default.attributesOfItem(atPath: page)[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["students.html"], "no temporary file left")

        // A symlink: the link stays a link, and what it points to is untouched.
        let target = folder + "/precious.txt"
        try "precious".write(toFile: target, atomically: true, encoding: .utf8)
        let link = folder + "/link.html"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let viaLink = try bed.run(["export", "--html", link])
        #expect(viaLink.status == 1)
        #expect(viaLink.stderr == "onthemap: \(link) is a symbolic link, not a regular file: give the path of a file to write\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")

        // A FIFO: refused without opening it (opening one with no reader would block).
        let fifo = folder + "/pipe.html"
        #expect(mkfifo(fifo, 0o600) == 0)
        let viaFIFO = try bed.run(["export", "--html", fifo])
        #expect(viaFIFO.status == 1)
        #expect(viaFIFO.stderr.contains("is a FIFO"), "\(viaFIFO.stderr)")
        #expect(try Self.kind(fifo) == "fifo", "the FIFO was replaced")

        // A missing folder, and one that cannot be written: a sentence and exit status 1.
        let missing = try bed.run(["export", "--html", "/nonexistent/x.html"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "onthemap: cannot write /nonexistent/x.html: the folder /nonexistent does not exist; create it first or choose another\n")
        // A folder that is there and takes no files (even for root) is not called missing.
        let proc = try bed.run(["export", "--svg", "/proc/x.svg"])
        #expect(proc.status == 1)
        #expect(
            ["onthemap: cannot write /proc/x.svg: /proc takes no new files; choose another folder\n",
             "onthemap: cannot write /proc/x.svg: you may not write in /proc; choose another folder\n"].contains(proc.stderr),
            "\(proc.stderr)")
        // A folder's path, whether the folder is there or not: no file is named.
        for slashed in [folder + "/", folder + "/missing/"] {
            let refused = try bed.run(["export", "--html", slashed])
            #expect(refused.status == 1)
            #expect(refused.stderr == "onthemap: \(slashed) ends in a slash, so it names a folder: give the path of a file to write\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["link.html", "pipe.html", "precious.txt", "students.html"],
                "nothing written in the folder")
        // Refused before the daemon is asked to draw: with no daemon at all, the path is what is wrong.
        let noDaemon = ["ONTHEMAP_SOCKET": bed.cacheHome.file("nope.sock")]
        for (path, said) in [(folder + "/", "ends in a slash"), ("/nonexistent/x.html", "does not exist"), (link, "symbolic link")] {
            let refused = try bed.run(["export", "--html", path], extra: noDaemon)
            #expect(refused.status == 1 && refused.stderr.contains(said), "\(path): \(refused.stderr)")
        }
        if getuid() != 0 {
            let locked = folder + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
            let refused = try bed.run(["export", "--html", locked + "/x.html"])
            #expect(refused.status == 1 && refused.stderr.contains("you may not write in"), "\(refused.stderr)")
        }
    }

    /// The file holds other people's names and links, and is made to be shared: like any file a
    /// program saves (curl -o, cp), a new one is 0666 less the umask, so the user's umask decides who
    /// may read it; an existing one keeps its permissions. A read-only file is someone's "keep": it is
    /// replaced only with --force (as gzip asks for -f), and stays read-only.
    @Test func aNewFileFollowsTheUmaskAndAReadOnlyOneNeedsForce() throws {
        let bed = try CLITestBed()
        let folder = bed.cacheHome.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func mode(_ path: String) throws -> Int {
            try #require((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
        }
        for (mask, expected) in [("077", 0o600), ("022", 0o644), ("002", 0o664)] {
            let page = folder + "/umask-\(mask).html"
            let written = try runCommand(
                "/bin/sh", ["-c", "umask \(mask) && exec \"$0\" export --html \"$1\"", BuiltProducts.path("onthemap"), page],
                environment: bed.environment)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(try mode(page) == expected, "umask \(mask)")
        }

        let kept = folder + "/kept.svg"
        try "mine, keep it".write(toFile: kept, atomically: true, encoding: .utf8)
        chmod(kept, 0o444)
        let refused = try bed.run(["export", "--svg", kept])
        #expect(refused.status == 1)
        #expect(refused.stderr == "onthemap: \(kept) is read-only (mode 444): add --force to replace it, or choose another path\n", "\(refused.stderr)")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "mine, keep it", "a read-only file was replaced")
        let forced = try bed.run(["export", "--svg", kept, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: kept, encoding: .utf8).hasPrefix("<?xml"))
        #expect(try mode(kept) == 0o444, "still read-only")
    }

    /// As root a device node would have been replaced by a regular file (`/dev/full` became one); a
    /// node of our own (1,7: what /dev/full is), made with mknod, stands in for it.
    @Test(.enabled(if: getuid() == 0, "needs root to make a device node (mknod)"))
    func aDeviceIsNotReplaced() throws {
        let bed = try CLITestBed()
        let device = bed.cacheHome.file("full")
        #expect(mknod(device, S_IFCHR | 0o666, dev_t(0x107)) == 0, "mknod: \(String(cString: strerror(errno)))")
        let refused = try bed.run(["export", "--svg", device])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is a device"), "\(refused.stderr)")
        #expect(try Self.kind(device) == "character special file", "the device node was replaced")
    }

    /// What is at `path`, not following a symlink, as stat(1) names it ("fifo", "regular file").
    /// (Glibc's `struct stat` is ambiguous in this test target: Dispatch's C module declares it too.)
    static func kind(_ path: String) throws -> String {
        try runCommand("/usr/bin/stat", ["-c", "%F", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
