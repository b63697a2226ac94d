import NIOCore
import OnTheMapModels

/// Splits the byte stream into LSP base-protocol messages: headers (`Content-Length: N`, others such
/// as `Content-Type` ignored), an empty line, then exactly N bytes of body. Editors' JSON-RPC
/// libraries (Emacs's `jsonrpc.el`, Neovim's `vim.lsp.rpc`) frame this way.
///
/// The same limit as a line: a body announced above `maxLength` is refused before any of it is read.
/// Headers that cannot be read (no length, a length that is not a number, a line without a colon,
/// more than `maxHeaderBytes`) end the connection with a reason: nothing after them can be trusted
/// to start a message.
struct ContentLengthFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = LineFrame

    /// Headers are a line or two; a client sending kilobytes of them is not speaking this framing.
    static let maxHeaderBytes = 8 * 1024

    let maxLength: Int
    /// The announced length of the body being waited for; nil while reading headers.
    private var bodyLength: Int?
    /// Set once the framing is broken: the rest of the stream is dropped, the connection is closing.
    private var failed = false

    init(maxLength: Int) {
        self.maxLength = maxLength
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = nextFrame(&buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(frame))
        return failed ? .needMoreData : .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while let frame = nextFrame(&buffer) {
            context.fireChannelRead(wrapInboundOut(frame))
            if failed { return .needMoreData }
        }
        guard !failed, buffer.readableBytes > 0 || bodyLength != nil else { return .needMoreData }
        let reason: String
        if let bodyLength {
            reason = "the connection ended after \(buffer.readableBytes) of the \(bodyLength) bytes announced by Content-Length"
        } else {
            reason = "the connection ended inside the headers of a message"
        }
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        failed = true
        context.fireChannelRead(wrapInboundOut(.malformed(reason)))
        return .needMoreData
    }

    /// The next complete frame, consuming it; nil when more bytes are needed (or the stream failed).
    private mutating func nextFrame(_ buffer: inout ByteBuffer) -> LineFrame? {
        if failed {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            return nil
        }
        if bodyLength == nil {
            switch Self.readHeaders(&buffer, maxLength: maxLength) {
            case .needMoreData: return nil
            case .length(let length): bodyLength = length
            case .failure(let frame):
                failed = true
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                return frame
            }
        }
        guard let length = bodyLength, let body = buffer.readSlice(length: length) else { return nil }
        bodyLength = nil
        return .line(body)
    }

    private enum HeaderOutcome {
        case needMoreData
        case length(Int)
        case failure(LineFrame)
    }

    /// Reads the header block up to its empty line, consuming it once complete.
    private static func readHeaders(_ buffer: inout ByteBuffer, maxLength: Int) -> HeaderOutcome {
        let view = buffer.readableBytesView
        var lineStart = view.startIndex
        var lines: [ByteBufferView.SubSequence] = []
        while let newline = view[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = view[lineStart..<newline]
            // RFC-style CRLF; a bare LF is tolerated as a line end.
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            lineStart = view.index(after: newline)
            if line.isEmpty {
                let consumed = view.distance(from: view.startIndex, to: lineStart)
                let outcome = contentLength(of: lines, maxLength: maxLength)
                buffer.moveReaderIndex(forwardBy: consumed)
                return outcome
            }
            lines.append(line)
        }
        if view.count > maxHeaderBytes {
            return .failure(.malformed("the headers of a message are over 8 KiB; the connection is closed"))
        }
        return .needMoreData
    }

    /// The body length the header lines announce, or why they cannot be used.
    private static func contentLength(of lines: [ByteBufferView.SubSequence], maxLength: Int) -> HeaderOutcome {
        var length: Int?
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(.malformed("a header line has no colon (expected \"Content-Length: N\"); the connection is closed"))
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).trimmingWhitespace()
            guard name.lowercased() == "content-length" else { continue }
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self).trimmingWhitespace()
            guard !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                return .failure(.malformed("the Content-Length \"\(value.prefix(40))\" is not a number; the connection is closed"))
            }
            // More digits than any allowed length: too large, without overflowing an Int.
            guard value.utf8.count <= 10, let parsed = Int(value), parsed <= maxLength else { return .failure(.tooLong) }
            if let length, length != parsed {
                return .failure(.malformed("two different Content-Length headers; the connection is closed"))
            }
            length = parsed
        }
        guard let length else {
            return .failure(.malformed("a message without a Content-Length header; the connection is closed"))
        }
        return .length(length)
    }
}
