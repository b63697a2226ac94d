import NIOCore

/// Which framing one connection speaks, decided from its first bytes by `FramingDecoder` and read by
/// `ContentLengthFrameEncoder` so that every answer goes back the way the client wrote.
///
/// Touched only on the connection's event loop (both handlers run there), so it needs no lock.
final class ConnectionFraming {
    enum Mode {
        /// No byte has been read yet.
        case undecided
        /// Newline-delimited JSON: one message per line.
        case lines
        /// The LSP base protocol: `Content-Length: N\r\n\r\n` then N bytes.
        case contentLength
    }

    var mode = Mode.undecided
}

/// The connection's decoder: looks at the first bytes, then hands the stream for good to the line
/// decoder or the Content-Length decoder. Both yield the same `LineFrame`s, so everything behind it
/// (the dispatcher) is the same for either framing.
///
/// It also keeps the connection's unfinished input within the daemon-wide `InputBudget`.
struct FramingDecoder: ByteToMessageDecoder {
    typealias InboundOut = LineFrame

    private let framing: ConnectionFraming
    private var lines: LineFrameDecoder
    private var messages: ContentLengthFrameDecoder
    private let budget: InputBudget
    /// What this connection draws from `budget` now.
    private var drawn = 0
    /// Set once the budget refused this connection: its input is dropped, it is closing.
    private var refused = false

    init(maxLength: Int, framing: ConnectionFraming, budget: InputBudget) {
        self.framing = framing
        self.budget = budget
        lines = LineFrameDecoder(maxLength: maxLength)
        messages = ContentLengthFrameDecoder(maxLength: maxLength)
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if refused {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            return .needMoreData
        }
        let state: DecodingState
        switch framing.mode {
        case .undecided:
            guard let mode = Self.sniff(buffer.readableBytesView) else { return .needMoreData }
            framing.mode = mode
            return .continue
        case .lines:
            state = try lines.decode(context: context, buffer: &buffer)
        case .contentLength:
            state = try messages.decode(context: context, buffer: &buffer)
        }
        // What is left unread is an unfinished message: charge it to the daemon-wide budget.
        if state == .needMoreData, !holdWithinBudget(buffer.readableBytes) {
            refused = true
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            let megabytes = budget.capacity / (1024 * 1024)
            context.fireChannelRead(wrapInboundOut(.malformed(
                "the daemon already holds \(megabytes) MiB of unfinished requests from its clients; this one is refused and the connection closed")))
        }
        return state
    }

    /// Whether this connection may hold `bytes` of unfinished input; updates its draw if so.
    private mutating func holdWithinBudget(_ bytes: Int) -> Bool {
        let wanted = InputBudget.draw(forHolding: bytes)
        guard wanted != drawn else { return true }
        guard budget.redraw(from: drawn, to: wanted) else { return false }
        drawn = wanted
        return true
    }

    mutating func decoderRemoved(context: ChannelHandlerContext) {
        _ = budget.redraw(from: drawn, to: 0)
        drawn = 0
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        if refused {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            return .needMoreData
        }
        if framing.mode == .undecided {
            // Too few bytes to tell ("Cont" then EOF): a short line, answered as one.
            framing.mode = Self.sniff(buffer.readableBytesView) ?? .lines
        }
        switch framing.mode {
        case .undecided, .lines:
            return try lines.decodeLast(context: context, buffer: &buffer, seenEOF: seenEOF)
        case .contentLength:
            return try messages.decodeLast(context: context, buffer: &buffer, seenEOF: seenEOF)
        }
    }

    private static let headerStart = Array("content-".utf8)

    /// Content-Length framing when the stream opens with `Content-` in any case (`Content-Length` or
    /// `Content-Type`: a JSON text never starts with a letter); lines otherwise; nil while the bytes
    /// so far could still be either.
    static func sniff(_ bytes: ByteBufferView) -> ConnectionFraming.Mode? {
        for (byte, expected) in zip(bytes, headerStart) {
            // ASCII lower-casing: setting bit 5 maps A–Z onto a–z and leaves `-` alone.
            let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            if lowered != expected { return .lines }
        }
        return bytes.count >= headerStart.count ? .contentLength : nil
    }
}
