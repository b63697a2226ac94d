import Foundation
import NIOCore

extension Daemon {
    /// The whole `status` result as of now. An expired session is ended first, so the answer and
    /// the notifications agree that it is over.
    func status() async -> ByteBuffer {
        _ = await liveSession()
        return answers.status(answers.prepared(for: await state.current))
    }
}
