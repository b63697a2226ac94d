// nio-canned-server: the C canned server's job done with SwiftNIO and nothing else: split lines,
// answer each with the bytes read from a file. It shows how much of the daemon's round trip is the
// event-loop library's own, below any code of this project.
//
//   nio-canned-server SOCKET STATUS_REPLY STUDENTS_REPLY

import Foundation
import NIOCore
import NIOPosix

struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else { return .needMoreData }
        let line = buffer.readSlice(length: newline - buffer.readerIndex + 1)!
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }
}

final class CannedReply: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let status: ByteBuffer
    let students: ByteBuffer

    init(status: ByteBuffer, students: ByteBuffer) {
        self.status = status
        self.students = students
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        let isStudents = line.readableBytesView.withContiguousStorageIfAvailable { bytes in
            String(decoding: bytes, as: UTF8.self).contains("students")
        } ?? false
        context.writeAndFlush(wrapOutboundOut(isStudents ? students : status), promise: nil)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: nio-canned-server SOCKET STATUS_REPLY STUDENTS_REPLY\n".utf8))
    exit(64)
}
let status = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
let students = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: arguments[3])))
unlink(arguments[1])
let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.backlog, value: 1024)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
            try channel.pipeline.syncOperations.addHandler(CannedReply(status: status, students: students))
        }
    }
    .bind(unixDomainSocketPath: arguments[1])
    .get()
try await server.closeFuture.get()
