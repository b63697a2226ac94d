import Foundation
import OnTheMapTestSupport
import Testing

/// The exit status tells the truth (issue 39): output that cannot be written (a full disk, here
/// /dev/full) is an error, one line on stderr and exit 1, never a truncated file and a success; a
/// reader that goes away (`| head`) ends the command quietly.
@Suite("Writes that fail", .ownThreads)
struct WriteFailureTests {
    @Test func aFullDiskIsAnError() throws {
        let bed = try CLITestBed()
        let commands: [[String]] = [
            ["students", "--json"], ["students", "--tsv"], ["map", "--width", "40", "--height", "10"],
            ["status", "--json"], ["export", "--html", "-"],
            // Printed by ArgumentParser, through stdio's buffer.
            ["--help"], ["students", "--help"], ["--version"],
        ]
        for command in commands {
            let result = try runCommand(
                "/bin/sh", ["-c", "exec \"$0\" \"$@\" >/dev/full", BuiltProducts.path("onthemap")] + command,
                environment: bed.environment)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("could not write the output (No space left on device)"), "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
    }

    /// A file that cannot be written whole (here a file-size limit of one block, which fails the write
    /// as a full disk would, after the first bytes) is an error, and leaves no part of a file: neither
    /// a new one nor a change to the one that was there.
    @Test func aFileThatCannotBeWrittenWholeIsAnErrorAndLeavesNothing() throws {
        let bed = try CLITestBed()
        let directory = try TemporaryDirectory(prefix: "onthemap-efbig")
        defer { directory.remove() }
        let kept = directory.file("kept.html")
        try "the earlier export\n".write(toFile: kept, atomically: true, encoding: .utf8)
        for target in [directory.file("new.html"), kept] {
            let result = try runCommand(
                "/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" export --html \"$1\" --force", BuiltProducts.path("onthemap"), target],
                environment: bed.environment)
            #expect(result.status == 1, "\(target): \(result.status) \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(result.stderr.contains("File too large"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("new.html")), "a part of the new file was left")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "the earlier export\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["kept.html"], "files left behind: \(left)")
    }

    @Test func aReaderThatGoesAwayEndsItQuietly() throws {
        let bed = try CLITestBed()
        let result = try runCommand(
            // `true` reads nothing and exits at once: the list's first write meets a closed pipe.
            "/bin/bash", ["-c", "\"$0\" students --limit 120 --tsv | true; echo \"status ${PIPESTATUS[0]}\"", BuiltProducts.path("onthemap")],
            environment: bed.environment)
        #expect(result.stdout == "status 0\n", "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    /// `watch | head -1` ends when head does, not at the next change of status, which may never come:
    /// "done" is printed only once both have ended.
    @Test func watchEndsWhenItsReaderGoesAway() throws {
        let bed = try CLITestBed()
        let pipeline = try RunningProcess(
            "/bin/sh", ["-c", "\"$0\" watch | head -1; echo done", BuiltProducts.path("onthemap")], environment: bed.environment)
        defer { pipeline.stop() }
        #expect(pipeline.waitForLine { $0 == "done" }, "watch still runs after head left: \(pipeline.lines)")
        #expect(pipeline.lines.first?.hasPrefix("{") == true, "\(pipeline.lines)")
    }
}
