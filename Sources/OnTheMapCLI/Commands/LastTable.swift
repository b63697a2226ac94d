import FoundationEssentials
import OnTheMapModels
import OnTheMapSupport

/// The rows of the last table `students` printed, so `open 3` opens the third one's link.
enum LastTable {
    static var path: String {
        var environment: [String: String] = [:]
        for name in ["XDG_CACHE_HOME", "HOME"] { environment[name] = Terminal.environment(name) }
        return XDGDirectory.path("XDG_CACHE_HOME", fallback: ".cache", environment: environment) + "/onthemap/last-table.tsv"
    }

    static func save(_ rows: [StudentRow]) {
        let text = rows.map { "\($0.name)\t\($0.link)" }.joined(separator: "\n") + "\n"
        let directory = String(path[..<path.lastIndex(of: "/")!])
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    /// The link of row `number` (1-based) of the last table.
    static func link(row number: Int) -> String? {
        let lines = self.lines()
        guard number >= 1, number <= lines.count else { return nil }
        return lines[number - 1].split(separator: "\t", maxSplits: 1).last.map(String.init)
    }

    /// How many rows the last table had (0 when there is none).
    static var rowCount: Int { lines().count }

    private static func lines() -> [Substring] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }
}
