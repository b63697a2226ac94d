import Foundation
import OnTheMapModels

/// Rows for people and for scripts: aligned columns on a terminal, tab-separated otherwise, or JSON
/// (an array of objects keyed by the column names) with `--json`, where the numeric columns are JSON
/// numbers and an empty cell is null. Terminal and TSV cells are `DisplayText`; JSON keeps them exact.
struct OutputTable {
    let columns: [String]
    /// Columns whose cells are numbers (`"pins": 0`, not `"pins": "0"`).
    var numericColumns: Set<String> = []
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
            let widths = columns.indices.map { index in
                ([columns[index]] + shown.map { $0[index] }).map(\.count).max() ?? 0
            }
            for line in [columns] + shown {
                Swift.print(zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
            }
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
