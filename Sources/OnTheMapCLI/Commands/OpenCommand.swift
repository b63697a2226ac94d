import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapFolding
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

import Glibc

/// `onthemap open STUDENT`.
struct OpenCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Open a student's link: by number in the last table or map, or by name.",
        discussion: """
            Only http and https links are opened; anything else a student posted is refused, naming them. \
            A name several students match lists them, numbered, and opens none (exit status 1): \
            `onthemap open N` then opens one of them. A row the last table does not have, and a name \
            no student has, exit 1 too; a row number below 1 is a usage error (64).

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    // `.allUnrecognized`: "-1" reaches the row check instead of reading as a flag (which left
    // "Missing expected argument"); a name may be given in several words, unquoted.
    @Argument(
        parsing: .allUnrecognized,
        help: "A row number from the last `onthemap students` table or pin number of the last `onthemap map`, or a name.",
        completion: .custom { _, _, prefix in CompletionWords.offered(typed: prefix, LastTable.completions) })
    var student: [String] = []

    // Before `student`'s `.allUnrecognized` would take it as a word of a name.
    @Flag(help: "The link opened as JSON ({\"name\", \"link\"}); a name several students match prints them as `students --json` does.")
    var json = false

    /// The row number or the name, as given (after a `--` that ends the options: `open -- -1`).
    var given: String { words.joined(separator: " ") }

    private var words: [String] { student.first == "--" ? Array(student.dropFirst()) : student }

    /// How many students a name may match before the list says "and N more".
    static let candidateLimit = 20

    /// Row numbers: 1 is the first row of the last table or map.
    static let rows = NumberRange(atLeast: 1)

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("Give a row number or a name, e.g. `onthemap open 3`.") }
        if let number = Int(given.trimmingWhitespace()) { return try Self.rows.validate(number, "The row number") }
        // "open 1 2": rows, not a name with digits in it; one at a time.
        if words.count > 1, words.allSatisfy({ Int($0) != nil }) {
            throw ValidationError("Give one row number at a time, e.g. `onthemap open \(words[0])`.")
        }
        // What .allUnrecognized took that is no number: an option open does not have.
        if student.first != "--", let option = student.first(where: { $0.hasPrefix("-") && $0.count > 1 }) {
            throw ValidationError("Unknown option '\(option)'. `onthemap open --help` lists the options.")
        }
        try TypedText.check(given, atMost: TypedText.search, "The name")
    }

    func execute() throws {
        if let number = Int(given.trimmingWhitespace()) {
            return try openRow(number)
        }
        try openByName(given.trimmingWhitespace())
    }

    /// No row to open is the same failure as no student by that name (exit status 1): a number from 1
    /// up is well formed whatever the last table held, so it is not a usage error (below 1 it is).
    private func openRow(_ number: Int) throws {
        switch LastTable.load() {
        case .none:
            throw CommandFailure(message: "no table or map to pick from yet: run `onthemap students` or `onthemap map` first")
        case .unreadable:
            throw CommandFailure(message: "the last table (\(LastTable.path)) cannot be read: run `onthemap students` again")
        case .rows(let rows):
            guard !rows.isEmpty else {
                throw CommandFailure(message: "the last table or map had no rows: run `onthemap students` to list some")
            }
            guard number >= 1, number <= rows.count else {
                throw CommandFailure(message: "no row \(number): the last table or map has rows 1 to \(rows.count)")
            }
            try open(rows[number - 1].link, dropped: rows[number - 1].dropped, of: rows[number - 1].name)
        }
    }

    private func openByName(_ name: String) throws {
        guard !name.isEmpty else { throw UsageFailure(message: "give a name or a row number, e.g. `onthemap open 3`") }
        let result = try global.result(StudentsParams(limit: Self.candidateLimit, search: name))
        let candidates = Self.candidates(result.students, for: name)
        let shown = DisplayText.clean(name)
        guard let first = candidates.first?.student else {
            throw CommandFailure(message: "no student matches \"\(shown)\": `onthemap students` lists them all")
        }
        guard candidates.count > 1 else { return try open(first.mediaURL, dropped: first.mediaURLDropped, of: first.fullName) }
        // Which one is meant is the person's to say: list them, numbered as `open N` will read them.
        // Only the newest `candidateLimit` of the students the search found are listed: one count, and
        // which of them these are.
        let count = result.total > result.students.count ? result.total : candidates.count
        var matched: [FittedSentence.Part] = [.words("\(CountText.grouped(count)) students match"), .quoted(shown, after: ";")]
        if result.total > result.students.count { matched.append(.words("\(candidates.count) of them, newest first;")) }
        let style = Style(enabled: Terminal.colorOnStderr)
        if json {
            // For a script the list is data: on stdout, and no table is shown for `open N` to read.
            try Output.json(candidates)
            let said = FittedSentence(parts: matched + [.words("give more of the name to open one")])
            throw CommandFailure(message: said.text)
        }
        // The line over the table fits the terminal as the table does.
        let width = Terminal.width(of: STDERR_FILENO)
        let said = [.words("onthemap:")] + matched + [.words("open one with"), .whole("`onthemap open N`:")]
        var lines = FittedSentence(parts: said).lines(width: width)
        lines[0] = style.red("onthemap:") + lines[0].dropFirst("onthemap:".count)
        Output.error(lines.joined(separator: "\n"))
        Output.error(StudentTable.render(candidates, width: width, now: Date(), style: style))
        LastTable.save(candidates, shownOn: STDERR_FILENO)
        throw ExitCode(ExitStatus.daemonError)
    }

    private func open(_ link: String, dropped: String?, of name: String) throws {
        let opened = try URLOpener.open(link, dropped: dropped, student: name, json: json)
        if json { try Output.json(OpenedLink(name: name, link: opened)) }
    }

    /// The students a name means: those whose whole name it is, if any; else those whose name holds
    /// every word of it ("Ada" is Ada Lovelace, not someone in Guadalajara: the search also reads
    /// places); else every match. Names compare as the daemon's search compares them, without case
    /// or accents (`SearchFolding`: "jose" is José). A student who posted the same link more than once
    /// counted once.
    static func candidates(_ pins: [StudentPin], for name: String) -> [StudentPin] {
        let folded = SearchFolding.fold(name)
        let words = folded.split(separator: " ")
        let names = pins.map { SearchFolding.fold($0.student.fullName) }
        let exact = pins.indices.filter { names[$0] == folded }.map { pins[$0] }
        let named = pins.indices.filter { index in words.allSatisfy { names[index].contains($0) } }.map { pins[$0] }
        var seen: Set<[String]> = []
        let meant = !exact.isEmpty ? exact : !named.isEmpty ? named : pins
        return meant.filter { seen.insert([$0.student.fullName, $0.student.mediaURL]).inserted }
    }
}
