import Foundation
import OnTheMapModels
import OnTheMapSupport
import OnTheMapTestSupport
import Testing

@testable import OnTheMapCLI

/// The CLI's half of one text width (issue 40; Neovim and Emacs are checked against the same
/// Golden/text-cuts.txt by TextWidthTests): names with a combining accent, East Asian wide
/// characters and emoji, posted through the real server, are cut whole, and the table lines up.
/// The CLI counted 🚀 and ✨ as one column where terminals and both editors draw two.
@Suite("Text width in the CLI", .ownThreads)
struct TextCutTests {
    static let people = [("Jose\u{301}", "Pe\u{301}rez"), ("美咲", "田中"), ("Rocket🚀", "Fan"), ("Star✨", "Lee")]

    /// Columns as a terminal draws these names: the test's own count, not the CLI's.
    static func columns(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            sum + (scalar.value == 0x301 ? 0 : "美咲田中🚀✨".unicodeScalars.contains(scalar) ? 2 : 1)
        }
    }

    @Test func namesFromTheServerAreCutWholeAndLineUp() throws {
        let bed = try CLITestBed(login: false)
        for (index, person) in Self.people.enumerated() {
            let email = "width\(index)@example.com"
            try bed.server.addUser(email: email, password: "width-test-\(index)", first: person.0, last: person.1)
            #expect(try bed.run(["login", "--force", "--username", email, "--password-stdin"], stdin: "width-test-\(index)\n").status == 0)
            let posted = try bed.run(["post", "Paris, France", "https://width.example/\(index)", "--yes", "--overwrite"])
            #expect(posted.status == 0, "\(posted.stderr)")
        }
        let listed = try bed.run(["students", "--json", "--limit", "4"])
        let names = try WireCoding.decoder().decode([StudentLocation].self, from: Data(listed.stdout.utf8)).map { "\($0.firstName) \($0.lastName)" }
        #expect(Set(names) == Set(Self.people.map { "\($0.0) \($0.1)" }), "\(names)")

        let golden = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/text-cuts.txt"), encoding: .utf8)
        var cuts: [String] = []
        for name in Self.people.map({ "\($0.0) \($0.1)" }) where names.contains(name) {
            for width in 2...11 { cuts.append("\(name)\t\(width)\t\(DisplayWidth.truncate(name, to: width))") }
        }
        #expect(cuts == golden.split(separator: "\n").map(String.init))

        // The table at 36 columns: the names and places cut, the PLACE column where the header says on
        // every row.
        let table = try bed.run(["students", "--limit", "4"], extra: ["COLUMNS": "36"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        let header = try #require(lines.first)
        let placeTitle = try #require(header.range(of: "PLACE"), "\(table.stdout)")
        let place = Self.columns(header[..<placeTitle.lowerBound])
        for line in lines.dropFirst() {
            let start = try #require(line.range(of: "Pari"), "\(line)")
            #expect(line.contains("…"), "no cut at 36 columns:\n\(table.stdout)")
            #expect(Self.columns(line[..<start.lowerBound]) == place, "\(table.stdout)")
        }
    }

    /// Format characters that show as nothing (U+200B, U+200C, U+2060, U+FEFF) take no column, so a
    /// row holding them lines up with the others (issue 39: each counted one, and the row's later
    /// columns came out short); a ZWJ emoji is still its parts, the soft hyphen one column.
    /// A message wider than the terminal breaks between words, never inside a command in backquotes:
    /// copied, the command must paste as one line.
    @Test func aMessageBreaksBetweenWordsKeepingCommandsWhole() {
        let advice = "onthemap: cannot reach onthemapd. Start it with `systemctl --user start onthemapd.socket`, or run `onthemapd &`."
        let lines = Terminal.fitted(advice, width: 60).split(separator: "\n").map(String.init)
        #expect(lines == ["onthemap: cannot reach onthemapd. Start it with",
                          "`systemctl --user start onthemapd.socket`, or run",
                          "`onthemapd &`."], "\(lines)")
        #expect(Terminal.fitted("Move it? [y/N] ", width: 80) == "Move it? [y/N] ")
        #expect(Terminal.fitted("You already have a pin at \"Springfield, Massachusetts\". Move it? [y/N] ", width: 40)
                == "You already have a pin at \"Springfield,\nMassachusetts\". Move it? [y/N] ")
    }

    @Test func invisibleCharactersTakeNoColumn() throws {
        #expect(DisplayWidth.of("a\u{200B}b\u{200C}c\u{2060}d\u{FEFF}") == 4)
        #expect(DisplayWidth.of("👩\u{200D}💻") == 4)
        #expect(DisplayWidth.of("co\u{AD}op") == 5)
        #expect(DisplayWidth.truncate("Zero\u{200B}Width", to: 9) == "Zero\u{200B}Width")

        let bed = try CLITestBed(login: false)
        let people = [("Zero\u{200B}Width", "Join\u{2060}er\u{FEFF}"), ("Plain", "Name"), ("Non\u{200C}joiner", "X")]
        for (index, person) in people.enumerated() {
            let email = "invisible\(index)@example.com"
            try bed.server.addUser(email: email, password: "invisible-\(index)", first: person.0, last: person.1)
            #expect(try bed.run(["login", "--force", "--username", email, "--password-stdin"], stdin: "invisible-\(index)\n").status == 0)
            let posted = try bed.run(["post", "Paris, France", "https://invisible.example/\(index)", "--yes", "--overwrite"])
            #expect(posted.status == 0, "\(posted.stderr)")
        }
        let table = try bed.run(["students", "--limit", "3"], extra: ["COLUMNS": "100"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        let header = try #require(lines.first)
        let placeTitle = try #require(header.range(of: "PLACE"), "\(table.stdout)")
        // The test's own count: these four characters draw nothing, everything else here one column.
        func columns(_ text: Substring) -> Int {
            text.unicodeScalars.filter { ![0x200B, 0x200C, 0x2060, 0xFEFF].contains($0.value) }.count
        }
        let place = columns(header[..<placeTitle.lowerBound])
        #expect(lines.count == 4, "\(table.stdout)")
        for line in lines.dropFirst() {
            let start = try #require(line.range(of: "Paris"), "\(line)")
            #expect(columns(line[..<start.lowerBound]) == place, "\(table.stdout.debugDescription)")
        }
    }
}
