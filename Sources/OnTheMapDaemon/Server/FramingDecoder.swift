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
/// (fast path, dispatcher) is the same for either framing.
struct FramingDecoder: ByteToMessageDecoder {
    typealias InboundOut = LineFrame

    private let framing: ConnectionFraming
    private var lines: LineFrameDecoder
    private var messages: ContentLengthFrameDecoder

    init(maxLength: Int, framing: ConnectionFraming) {
        self.framing = framing
        lines = LineFrameDecoder(maxLength: maxLength)
        messages = ContentLengthFrameDecoder(maxLength: maxLength)
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        switch framing.mode {
        case .undecided:
            guard let mode = Self.sniff(buffer.readableBytesView) else { return .needMoreData }
            framing.mode = mode
            return .continue
        case .lines:
            return try lines.decode(context: context, buffer: &buffer)
        case .contentLength:
            return try messages.decode(context: context, buffer: &buffer)
        }
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
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
