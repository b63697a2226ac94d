/// The word a mistyped one most likely meant ("stauts" → "status"), for "did you mean" in every
/// program: onthemap's commands and the daemon's methods, onthemapd's settings.
public enum NearestWord {
    /// The closest of `candidates` to `word`, when it is close enough to be meant.
    public static func to(_ word: String, among candidates: [String]) -> String? {
        let closest = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        // As close as ArgumentParser's own suggestions for options: fewer than four edits, and
        // fewer than half the word's letters (so "ls" suggests nothing).
        guard let (candidate, edits) = closest, edits < 4, edits * 2 <= word.count else { return nil }
        return candidate
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
