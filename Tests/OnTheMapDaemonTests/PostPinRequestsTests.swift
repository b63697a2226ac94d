import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// `postPin` asks the upstream twice, counted in the real server's access log: the user's pin, then
/// the write. No list refresh rides along: the pin the server confirmed is in the cache at once.
@Suite("postPin's upstream requests", .ownThreads)
struct PostPinRequestsTests {
    @Test func twoRequestsAndThePinIsCachedAtOnce() throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        let accessLog = logs.file("access.log")
        let bed = try DaemonTestBed(students: 150, serverArguments: ["--access-log", accessLog])
        defer { bed.tearDown() }
        try bed.login()
        /// Every request the server finished, as "METHOD path".
        func requests() -> [String] {
            ((try? String(contentsOfFile: accessLog, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
                guard let entry = try? JSONText.parse(line), let method = entry["method"]?.stringValue,
                    let path = entry["path"]?.stringValue
                else { return nil }
                return method + " " + path
            }
        }
        // The login's requests, logged as the server finishes them.
        #expect(eventually { requests().contains { $0.hasPrefix("GET /v1/StudentLocation") } })
        let before = requests().count
        for (place, created) in [("Lima, Peru", true), ("Quito, Ecuador", false)] {
            let posted = try bed.result(
                "postPin", params(("mapString", .string(place)), ("mediaURL", .string("https://ada.example")), ("overwrite", .bool(true))))
            #expect(posted["created"] == .bool(created))
            let objectId = try #require(posted["pin"]?["objectId"]?.stringValue)
            // In the cache at once, first, as the newest; the cache keeps its size.
            let students = try bed.result("students", params(("limit", .integer(1))))
            #expect(students["students"]?.arrayValue?.first?["objectId"]?.stringValue == objectId)
            #expect(try bed.result("status")["students"]?["count"] == .integer(100))
            #expect(try bed.result("status")["myPin"]?["mapString"]?.stringValue?.hasPrefix(place.prefix { $0 != "," } + ",") == true)
        }
        #expect(eventually { requests().count >= before + 4 })
        let posts = Array(requests()[before...])
        #expect(posts.count == 4, "\(posts)")
        #expect(posts.filter { $0.hasPrefix("GET /v1/StudentLocation") }.count == 2, "one lookup a post: \(posts)")
        #expect(posts.filter { $0.hasPrefix("POST /v1/StudentLocation") || $0.hasPrefix("PUT /v1/StudentLocation") }.count == 2, "\(posts)")
    }
}

extension WireJSON {
    /// The elements of an array.
    fileprivate var arrayValue: [WireJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
