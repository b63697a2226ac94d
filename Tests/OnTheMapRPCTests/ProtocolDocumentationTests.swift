import Foundation
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// docs/PROTOCOL.md against the declarations: every method has its section, every param is named in
/// it, and no section describes a method that is not declared.
@Suite("docs/PROTOCOL.md", .ownThreads)
struct ProtocolDocumentationTests {
    /// `### name` (or `### a / b`) sections under `## Methods`, by method name.
    static func methodSections() throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let methods = try #require(text.range(of: "\n## Methods\n"))
        let end = text.range(of: "\n## ", range: methods.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        var sections: [String: String] = [:]
        for chunk in text[methods.upperBound..<end].components(separatedBy: "\n### ").dropFirst() {
            let heading = chunk.prefix { $0 != "\n" }
            for name in heading.split(separator: "/") {
                sections[name.trimmingCharacters(in: .whitespaces)] = chunk
            }
        }
        return sections
    }

    @Test func everyMethodAndParamIsDocumented() throws {
        let sections = try Self.methodSections()
        for method in OnTheMapMethods.all {
            guard let section = sections[method.method] else {
                Issue.record("docs/PROTOCOL.md has no `### \(method.method)` section")
                continue
            }
            for param in method.parameters where !section.contains("`\(param.name)`") && !section.contains("\"\(param.name)\"") {
                Issue.record("docs/PROTOCOL.md's \(method.method) section does not name its param `\(param.name)`")
            }
        }
    }

    @Test func everyDocumentedMethodIsDeclared() throws {
        let declared = Set(OnTheMapMethods.all.map { $0.method })
        for name in try Self.methodSections().keys {
            #expect(declared.contains(name), "docs/PROTOCOL.md documents `\(name)`, which no declaration has")
        }
    }
}
