import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@Suite("The client's JSON reader", .ownThreads)
struct WireJSONParsingTests {
    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
        #"[1,-2,3.5,-0.25,1e3,2E-2,12345678901234]"#,
        #""quote\" backslash\\ slash\/ \n\t\r\b\f \u00e9 \ud83d\uddfa 東京""#,
        #"  {"nested":[[[]]],"empty":{}}  "#,
        #"{"jsonrpc":"2.0","id":1,"result":{"version":"0.1.0","students":{"count":100,"stale":false,"lastError":null}}}"#,
    ])
    func agreesWithJSONDecoder(text: String) throws {
        let fast = try WireJSON.parse(text.utf8)
        let reference = try JSONDecoder().decode(WireJSON.self, from: Data(text.utf8))
        #expect(fast == reference)
    }

    @Test(arguments: [
        "", "{", "}", "[1,]", "{\"a\":}", "{\"a\" 1}", "01", "1.", ".5", "-", "1e", "tru", "nul", "\"unterminated",
        "\"bad \\x escape\"", "\"\\ud800 lone surrogate\"", "[1] 2", "{\"a\":1,}", "\"tab\tinside\"", "1e400",
    ])
    func rejectsInvalidJSON(text: String) {
        #expect(throws: WireJSON.ParseError.self) { try WireJSON.parse(text.utf8) }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: WireJSON.ParseError.self) { try WireJSON.parse([0x22, 0xFF, 0x22]) }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: WireJSON.ParseError.self) { try WireJSON.parse(deep.utf8) }
    }

    /// Bytes that are not contiguous in memory take the copying path and read the same.
    @Test func readsBytesThatAreNotContiguous() throws {
        let text = #"{"a":[1,2.5,"x"],"b":{"c":null}}"#
        let scattered = text.utf8.lazy.map { $0 }
        #expect(scattered.withContiguousStorageIfAvailable { _ in true } == nil)
        #expect(try WireJSON.parse(scattered).serialized == text)
        let slice = Array(("  " + text).utf8)[2...]  // contiguous, indices not from 0
        #expect(try WireJSON.parse(slice).serialized == text)
    }

    /// The reader works on an unsafe buffer, whose subscript does not check bounds in release
    /// builds: a text cut short inside a larger buffer must end where the buffer ends, not read on
    /// into the bytes after it (which here would complete it).
    @Test(arguments: [
        (#"[1,2]]]"#, 5, "[1,2]"), (#""abc""#, 4, nil), ("true", 3, nil), ("123", 2, "12"),
        (#"{"a":1}"#, 6, nil), (#""\u00e9""#, 6, nil), (#""a\nb""#, 3, nil), ("1e5", 2, nil), ("-1", 1, nil),
        (#""\uD83D\uDDFA""#, 8, nil), (#""\uD83D\uDDFA""#, 9, nil), (#""\uD83D\uDDFA""#, 13, nil),
    ])
    func stopsAtTheEndOfItsBuffer(whole: String, count: Int, expected: String?) throws {
        let bytes = Array(whole.utf8)
        let parsed = bytes.withUnsafeBufferPointer { all in
            Result { () throws(WireJSON.ParseError) in try WireJSON.parse(UnsafeBufferPointer(rebasing: all[..<count])) }
        }
        switch (parsed, expected) {
        case (.success(let value), let expected?): #expect(value.serialized == expected)
        case (.failure, nil): break
        default: Issue.record("\(whole) cut to \(count) bytes: \(parsed), expected \(expected ?? "an error")")
        }
    }

    @Test func keepsMemberOrder() throws {
        let value = try WireJSON.parse(#"{"z":1,"a":2,"m":3}"#.utf8)
        #expect(value.serialized == #"{"z":1,"a":2,"m":3}"#)
    }
}
