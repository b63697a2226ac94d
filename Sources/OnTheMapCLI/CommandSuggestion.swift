import ArgumentParser

/// A command name that is not one: "onthemap stauts" is told about `status`, as a mistyped option is
/// told about the option meant (ArgumentParser does that for options only).
enum CommandSuggestion {
    /// The usage error for `word` in the place of a command, or nil when it is a command (or an
    /// option, left to ArgumentParser).
    static func error(for word: String, commands: [String]) -> ValidationError? {
        guard !word.hasPrefix("-"), !commands.contains(word), word != "help" else { return nil }
        let closest = commands.map { ($0, distance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        // As close as ArgumentParser's own suggestions for options: fewer than four edits, and
        // fewer than half the word's letters (so "ls" suggests nothing).
        if let (command, edits) = closest, edits < 4, edits * 2 <= word.count {
            return ValidationError("Unknown command '\(word)'. Did you mean '\(command)'?")
        }
        return ValidationError("Unknown command '\(word)'. `onthemap --help` lists the commands.")
    }

    /// Edits from `a` to `b`: insertions, deletions, substitutions and swaps of two neighbours
    /// (Damerau–Levenshtein, restricted): "stauts" is one swap from "status".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
