import Foundation
import OnTheMapTestSupport
import Testing

/// The man pages in docs/man, written by hand: each lints clean with mandoc and renders without a
/// warning from groff or man, has the sections a reader looks for, says the exit status once, and
/// mentions every option of every command its program has (read from the program itself).
@Suite("Man pages", .ownThreads)
struct ManPageTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/man").standardized.path
    static let programs = ["onthemap", "onthemapd", "onthemap-server"]
    static let mandoc = "/usr/bin/mandoc"

    static func page(_ program: String) throws -> String {
        try String(contentsOfFile: directory + "/" + program + ".1", encoding: .utf8)
    }

    @Test(arguments: programs)
    func rendersWithoutWarnings(program: String) throws {
        let path = Self.directory + "/" + program + ".1"
        let groff = "/usr/bin/groff"
        try #require(FileManager.default.isExecutableFile(atPath: groff), "groff is missing: apt-get install groff-base")
        let checked = try runCommand(groff, ["-ww", "-mandoc", "-z", path])
        #expect(checked.status == 0)
        #expect(checked.stderr.isEmpty, "\(program): \(checked.stderr)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let shown = try runCommand("/usr/bin/man", ["--warnings", "-l", path], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"])
            #expect(shown.status == 0)
            #expect(shown.stderr.isEmpty, "\(program): \(shown.stderr)")
            #expect(shown.stdout.contains("NAME"))
        }
    }

    /// `mandoc -T lint` at its strictest level (style). Only its notes about this machine are
    /// left aside: "referenced manual not found" (the pages name each other, installed together,
    /// and xdg-open(1), which a build machine may lack) and an outdated mandoc.db.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: mandoc), "mandoc is missing: apt-get install mandoc"), arguments: programs)
    func lintsClean(program: String) throws {
        let linted = try runCommand(Self.mandoc, ["-T", "lint", Self.directory + "/" + program + ".1"])
        let findings = (linted.stdout + linted.stderr).split(separator: "\n").filter {
            !$0.contains("referenced manual not found") && !$0.contains("outdated mandoc.db")
        }
        #expect(findings.isEmpty, "\(program).1:\n\(findings.joined(separator: "\n"))")
    }

    @Test(arguments: programs)
    func hasTheSectionsAReaderLooksFor(program: String) throws {
        let page = try Self.page(program)
        // onthemapd has options, not commands.
        let body = program == "onthemapd" ? "OPTIONS" : "COMMANDS"
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", body, "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(page.contains(".Sh \(section)\n"), "\(program).1 has no \(section) section")
        }
        // Once, as a table, not mdoc's generic "exits 0 on success, and >0 if an error occurs".
        #expect(page.components(separatedBy: ".Sh EXIT STATUS").count == 2)
        #expect(!page.contains(".Ex -std"))
    }

    /// Every option the program's commands take, as `--experimental-dump-help` lists them, is named
    /// in its page (`Fl -name`), so a new option cannot go undocumented.
    @Test(arguments: programs)
    func mentionsEveryOption(program: String) throws {
        let page = try Self.page(program)
        let dump = try runCommand(BuiltProducts.path(program), ["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let root = try #require(tool["command"] as? [String: Any])
        var missing: [String] = []
        func visit(_ command: [String: Any], path: String) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false {
                let names = argument["names"] as? [[String: Any]] ?? []
                // -h/--help is every command's; the SYNOPSIS names --help once.
                if names.contains(where: { $0["name"] as? String == "help" }) { continue }
                for name in names {
                    guard let spelled = name["name"] as? String, let kind = name["kind"] as? String else { continue }
                    let mark = kind == "long" ? "Fl -\(spelled)" : "Fl \(spelled)"
                    if !page.contains(mark) { missing.append("\(path) \(kind == "long" ? "--" : "-")\(spelled)") }
                }
            }
            for subcommand in command["subcommands"] as? [[String: Any]] ?? [] {
                visit(subcommand, path: path + " " + (subcommand["commandName"] as? String ?? "?"))
            }
        }
        visit(root, path: program)
        #expect(missing.isEmpty, "docs/man/\(program).1 does not mention: \(missing.joined(separator: ", "))")
    }
}
