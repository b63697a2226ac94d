/// A small, non-generic JSON reader for hot paths: the client's replies and the daemon's requests.
///
/// `JSONDecoder` into `WireJSON` works, but its generic containers make the runtime scan protocol
/// conformance records on first use, which costs a short-lived process milliseconds (see
/// docs/benchmarks.md). This reads bytes straight into `WireJSON`.
extension WireJSON {
    /// Why a text is not JSON.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var offset: Int
        public var description: String { "not valid JSON (at byte \(offset))" }
    }

    /// Parses one JSON text (surrounding whitespace allowed, nothing else).
    public static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> WireJSON {
        // In place where the bytes are contiguous (an array, a ByteBuffer view): through the
        // protocol requirement, not element by element, which is not specialised across modules and
        // cost the daemon more than the rest of a `status` request.
        if let parsed = bytes.withContiguousStorageIfAvailable({ buffer in Result { () throws(ParseError) in try parse(buffer) } }) {
            return try parsed.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { buffer throws(ParseError) in try parse(buffer) }
    }

    /// Parses one JSON text from memory the caller keeps alive for the call: no copy, and (unlike the
    /// generic entry) no generic metadata to instantiate, which a short-lived client pays for.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) -> WireJSON {
        var reader = Reader(bytes: bytes)
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw ParseError(offset: reader.index) }
        return value
    }

    /// Every read of `bytes` is behind a check of `index` against `bytes.count`: an unsafe buffer's
    /// subscript does not check in release builds.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        static let maxDepth = 256

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        func fail() -> ParseError { ParseError(offset: index) }

        mutating func value(depth: Int) throws(ParseError) -> WireJSON {
            guard depth < Self.maxDepth else { throw fail() }
            skipWhitespace()
            guard index < bytes.count else { throw fail() }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        mutating func literal(_ word: StaticString) throws(ParseError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw fail() }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw fail() }
            index += count
        }

        mutating func object(depth: Int) throws(ParseError) -> WireJSON {
            index += 1
            var members: [(String, WireJSON)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            // Requests and locations have 3 to 12 members: grown from empty, the storage would be
            // allocated four times over.
            members.reserveCapacity(8)
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail() }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail() }
                index += 1
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw fail() }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                throw fail()
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> WireJSON {
            index += 1
            var elements: [WireJSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw fail() }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                throw fail()
            }
        }

        mutating func string() throws(ParseError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var start = index
            // Whether the bytes since `start` are all ASCII, which needs no validation: the generic
            // `String(validating:)` took an eighth of reading 10,000 locations.
            var ascii = true
            func text(_ range: Range<Int>) -> String? {
                let slice = UnsafeBufferPointer(rebasing: bytes[range])
                return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
            }
            func flush(_ end: Int) throws(ParseError) {
                guard end > start else { return }
                guard let text = text(start..<end) else { throw ParseError(offset: start) }
                scalars.append(contentsOf: text.unicodeScalars)
                ascii = true
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    if scalars.isEmpty {
                        // No escapes: the bytes are the string (the common case, and the fast one).
                        guard let text = text(start..<index) else { throw ParseError(offset: start) }
                        index += 1
                        return text
                    }
                    try flush(index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw fail() }
                if byte != UInt8(ascii: "\\") {
                    if byte >= 0x80 { ascii = false }
                    index += 1
                    continue
                }
                try flush(index)
                index += 1
                guard index < bytes.count else { throw fail() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A surrogate pair: \uD83D\uDDFA.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail() }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail() }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail() }
                    scalars.append(scalar)
                default: throw fail()
                }
                start = index
            }
            throw fail()
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail() }
            var code: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw fail()
                }
                code = code * 16 + digit
                index += 1
            }
            return code
        }

        mutating func number() throws(ParseError) -> WireJSON {
            let start = index
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { throw fail() }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                let digits = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > digits else { throw fail() }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let digits = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > digits else { throw fail() }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger, let integer = Int(text) { return .integer(integer) }
            // Like JSONDecoder, refuse numbers no Double can hold (1e400).
            guard let double = Double(text), double.isFinite else { throw ParseError(offset: start) }
            return .number(double)
        }
    }
}
