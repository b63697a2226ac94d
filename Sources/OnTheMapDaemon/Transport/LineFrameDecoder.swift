import NIOCore

/// One frame from a client: a message (a line without its `\n`, or a Content-Length body), the news
/// that a message grew past the limit, or framing so broken that the connection must close (the
/// reason is sent to the client first).
enum LineFrame: Sendable {
    case line(ByteBuffer)
    case tooLong
    case malformed(String)
}

/// Splits the byte stream at `\n`, capping a line's size (as swift-nio-examples' JSON-RPC codec caps
/// its payload) so one client cannot make the daemon buffer without bound.
struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = LineFrame

    let maxLength: Int
    private var scanned = 0
    private var discarding = false

    init(maxLength: Int) {
        self.maxLength = maxLength
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let start = view.index(view.startIndex, offsetBy: min(scanned, view.count))
        guard let newline = view[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = view.count
            if scanned > maxLength {
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                scanned = 0
                if !discarding {
                    discarding = true
                    context.fireChannelRead(wrapInboundOut(.tooLong))
                }
            }
            return .needMoreData
        }
        let length = view.distance(from: view.startIndex, to: newline)
        scanned = 0
        if discarding {
            // The tail of an oversized line: drop it; the connection is closing anyway.
            buffer.moveReaderIndex(forwardBy: length + 1)
            discarding = false
            return .continue
        }
        if length > maxLength {
            buffer.moveReaderIndex(forwardBy: length + 1)
            context.fireChannelRead(wrapInboundOut(.tooLong))
            return .continue
        }
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        // Tolerate CRLF from clients such as `nc -C`.
        if line.readableBytesView.last == UInt8(ascii: "\r") { line = line.getSlice(at: line.readerIndex, length: length - 1)! }
        context.fireChannelRead(wrapInboundOut(.line(line)))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A final line without `\n` still counts.
        while try decode(context: context, buffer: &buffer) == .continue {}
        let remaining = buffer.readableBytes
        if remaining > 0, !discarding {
            let line = buffer.readSlice(length: remaining)!
            context.fireChannelRead(wrapInboundOut(remaining > maxLength ? .tooLong : .line(line)))
        }
        return .needMoreData
    }
}
