extension WebFiles {
    /// `template` with each `{{name}}` replaced by `values[name]`, once: what goes in is not read
    /// again, so a value holding braces stays as it is. A name without a value is left as written
    /// (a test finds it).
    ///
    /// The page's HTML files are templates for what only the program knows: the world's SVG, the
    /// operator's settings, the version of the files (docs/MAP.md, "In a browser").
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        result.reserveCapacity(template.utf8.count + values.values.reduce(0) { $0 + $1.utf8.count })
        var rest = template[...]
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            let name = String(rest[open.upperBound..<close.lowerBound])
            result += rest[..<open.lowerBound]
            result += values[name] ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// The ES module `entry` (under web/) and every module it imports, as one module's text: the
    /// imported ones first, each once, their `import` lines left out. For a page that must hold its
    /// script (the exported map: a file opened from disk cannot load modules beside it).
    ///
    /// The modules keep to one form for this: an import is one line, `import { a, b } from
    /// "./name.mjs";`, and no two modules that go together declare the same name at their top level
    /// (the browser test of the export fails if they do).
    public static func inlinedModule(_ entry: String) -> String {
        var done: Set<String> = []
        var parts: [String] = []
        func add(_ name: String) {
            guard done.insert(name).inserted else { return }
            let directory = name.split(separator: "/").dropLast().joined(separator: "/")
            var body: [Substring] = []
            for line in text(name).split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("import "), let from = line.firstRange(of: "from \"./") {
                    let path = line[from.upperBound...].prefix { $0 != "\"" }
                    add(directory.isEmpty ? String(path) : directory + "/" + path)
                } else {
                    body.append(line)
                }
            }
            parts.append(body.joined(separator: "\n"))
        }
        add(entry)
        return parts.joined(separator: "\n")
    }
}
