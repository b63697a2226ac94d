import Foundation
import OnTheMapMap
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// The page's files as files (Sources/CWebPage/web): every one embedded, every module valid
/// JavaScript as Node reads it (`node --check`), the pure functions' unit tests (Tests/Browser/js,
/// `node --test`), and the export's inlined script valid too. Node is a test tool only (Debian's
/// `nodejs`): nothing builds or serves the page with it.
@Suite("The web page's files in Node", .ownThreads)
struct WebScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let web = root.appendingPathComponent("Sources/CWebPage/web")
    static let node = ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let noNode: Comment = "needs Node.js to check the page's scripts (apt-get install nodejs): see .ci/run"

    /// Every file under web/, as a path relative to it.
    static func filesOnDisk() throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: web.path))
        return walker.compactMap { $0 as? String }.filter { name in
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: web.appendingPathComponent(name).path, isDirectory: &directory) && !directory.boolValue
        }.sorted()
    }

    @Test func everyFileInTheFolderIsEmbeddedAsItIs() throws {
        let disk = try Self.filesOnDisk()
        #expect(WebFiles.all.map(\.name).sorted() == disk, "Sources/CWebPage/web.c lists every file of web/")
        for name in disk {
            let bytes = try Data(contentsOf: Self.web.appendingPathComponent(name))
            #expect(WebFiles.named(name).map { Data($0.bytes) } == bytes, "\(name) as embedded")
        }
    }

    @Test func templatesAreFilledOnceEachPlaceholder() {
        #expect(WebFiles.fill("a {{x}} b {{y}} c", ["x": "{{y}}", "y": "1"]) == "a {{y}} b 1 c", "a value is not read again")
        #expect(WebFiles.fill("{{missing}} {{x}}", ["x": "2"]) == "{{missing}} 2", "a name without a value stays as written")
        #expect(WebFiles.fill("no braces {{ at the end", [:]) == "no braces {{ at the end")
        // A student named like a placeholder is shown as named, in the export and its search.
        let pin = StudentPin(
            student: StudentLocation(
                objectId: "a", uniqueKey: "a", firstName: "{{script}}", lastName: "{{names}}", mapString: "{{title}}",
                mediaURL: "", latitude: 1, longitude: 2, createdAt: nil, updatedAt: nil),
            mine: false)
        let page = MapDocument.html(pins: [pin], title: "t")
        #expect(page.contains(#"data-name="{{script}} {{names}}" data-place="{{title}}""#))
        #expect(page.ranges(of: "<script type=\"module\">").count == 1)
    }

    @Test func everyImportIsOneLineTheExportCanInline() throws {
        for file in WebFiles.all where file.name.hasSuffix(".mjs") {
            for line in file.text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" from \"") {
                #expect(line.wholeMatch(of: /import \{ [\w$, ]+ \} from "\.\/[a-z-]+\.mjs";/) != nil, "\(file.name): \(line)")
            }
        }
        let script = MapDocument.html(pins: [], title: "t")
        #expect(!script.contains("{{"), "every placeholder of web/export.html filled in")
        #expect(!script.contains("import {"), "the export's module holds the modules it imports")
    }

    @Test(.enabled(if: node != nil, noNode)) func everyModuleIsValidJavaScript() throws {
        let modules = try Self.filesOnDisk().filter { $0.hasSuffix(".mjs") || $0.hasSuffix(".js") }
        #expect(modules.count >= 10)
        for module in modules {
            let result = try runCommand(Self.node!, ["--check", Self.web.appendingPathComponent(module).path])
            #expect(result.status == 0, "\(module): \(result.stderr)")
        }
        // The export's one inline module, as the file holds it.
        let page = MapDocument.html(pins: [], title: "t")
        let script = try #require(page.firstMatch(of: /<script type="module">([\s\S]*)<\/script>/)?.output.1)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try String(script).write(toFile: directory.file("export.mjs"), atomically: true, encoding: .utf8)
        let result = try runCommand(Self.node!, ["--check", directory.file("export.mjs")])
        #expect(result.status == 0, "the export's inlined script: \(result.stderr)")
    }

    @Test(.enabled(if: node != nil, noNode)) func pureFunctionsPassTheirUnitTests() throws {
        let tests = Self.root.appendingPathComponent("Tests/Browser/js")
        let files = try FileManager.default.contentsOfDirectory(atPath: tests.path).filter { $0.hasSuffix(".test.mjs") }.sorted()
        #expect(files.count >= 2)
        let result = try runCommand(Self.node!, ["--test"] + files.map { tests.appendingPathComponent($0).path })
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("# fail 0"), "\(result.stdout)")
    }
}
