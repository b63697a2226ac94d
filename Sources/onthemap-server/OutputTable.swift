import Foundation
import OnTheMapModels
import OnTheMapSupport

/// Rows for people and for scripts: aligned columns on a terminal, fitted to its width as the
/// `onthemap` client's tables are (`TextTable`: text cut with "…", in terminal columns), tab-separated
/// otherwise, or JSON (an array of objects keyed by the column names) with `--json`, where the numeric
/// columns are JSON numbers and an empty cell is null. Terminal and TSV cells are `DisplayText`; JSON
/// keeps them exact.
struct OutputTable {
    /// Columns of text someone wrote, which give way to a narrow terminal; ids, numbers, times and
    /// states are shown whole (an id cut short could not be pasted into the next command).
    /// (An address is left out whole, never cut: "203.0.1…" reads as another.)
    static let cuttable: Set<String> = ["email", "name", "place", "link", "userAgent"]

    let columns: [String]
    /// Columns whose cells are numbers (`"pins": 0`, not `"pins": "0"`).
    var numericColumns: Set<String> = []
    /// Columns left out, in this order, when cutting the text is not enough for the terminal.
    var leftOutFirst: [String] = []
    var rows: [[String]] = []

    func print(json: Bool) {
        if json {
            // Keys in alphabetical order, as the rows' objects always were.
            let objects = rows.map { row in
                let cells = zip(columns, row).map { column, cell in (column, jsonValue(cell, column)) }
                return WireJSON.object(cells.sorted { $0.0 < $1.0 })
            }
            // Exact data, with nothing in it a terminal obeys or that reorders the line, as `onthemap --json`.
            Swift.print(String(decoding: DisplayText.escapedInJSON(Array(WireJSON.array(objects).serialized.utf8)), as: UTF8.self))
            return
        }
        // Cells hold what other people wrote (names, places, links, a browser's User-Agent), and
        // older databases may hold what the server now refuses: shown, never obeyed.
        let shown = rows.map { $0.map(DisplayText.clean) }
        if isatty(STDOUT_FILENO) == 1 {
            let table = TextTable(columns: columns.indices.map { index in
                TextTable.Column(
                    header: columns[index], cells: shown.map { $0[index] },
                    rightAligned: numericColumns.contains(columns[index]),
                    minimum: Self.cuttable.contains(columns[index]) ? 8 : nil,
                    dropOrder: leftOutFirst.firstIndex(of: columns[index]))
            })
            for line in table.lines(width: TerminalColumns.of(STDOUT_FILENO)) { Swift.print(line) }
        } else {
            for line in [columns] + shown { Swift.print(line.joined(separator: "\t")) }
        }
    }

    private func jsonValue(_ cell: String, _ column: String) -> WireJSON {
        guard numericColumns.contains(column) else { return .string(cell) }
        if cell.isEmpty { return .null }
        if let whole = Int(cell) { return .integer(whole) }
        if let number = Double(cell), number.isFinite { return .number(number) }
        return .string(cell)
    }
}

/// Asks before a destructive step: `--yes` answers for scripts; without it a terminal is asked and
/// anything else is refused.
enum Confirmation {
    static func require(_ question: String, yes: Bool) throws {
        if yes { return }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CommandError("\(question) Refusing without --yes when standard input is not a terminal.")
        }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
            throw CommandError("Nothing changed.")
        }
    }
}

/// ISO 8601 to the second, for tables.
func shortDate(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}
