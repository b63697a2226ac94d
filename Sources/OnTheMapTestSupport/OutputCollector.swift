import Foundation

/// Accumulates what a process writes to its pipes, each read by a plain thread that closes its end
/// of the pipe at end of file.
///
/// Not `FileHandle.readabilityHandler`: on Linux its dispatch source can crash the test process when
/// the handle goes away at end of file (seen here as a bad pointer in `_dispatch_event_loop_drain`).
///
/// Closed here, not left to the handle's `deinit`: Foundation's `Process` keeps itself, and so its
/// pipes, alive until `waitUntilExit()`, which the tests do not call (`Process.exitStatusIfExited`
/// says why). Left open, every child started leaked a descriptor: 2,500 by the end of a test run, and
/// `Process.run()` crashed reading past a buffer it lists `/proc/self/fd` into.
final class OutputCollector: @unchecked Sendable {
    /// Guards `data` and `openReaders`; signalled when a reader reaches end of file.
    private let condition = NSCondition()
    private var data = Data()
    private var openReaders = 0

    func collect(from handle: FileHandle) {
        condition.withLock { openReaders += 1 }
        let fd = handle.fileDescriptor
        // The thread holds the handle, so the descriptor stays open while it is read.
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                condition.withLock { data.append(contentsOf: buffer[..<count]) }
            }
            try? handle.close()
            condition.withLock {
                openReaders -= 1
                condition.broadcast()
            }
        }
        thread.start()
    }

    var text: String {
        condition.withLock { String(decoding: data, as: UTF8.self) }
    }

    /// Waits until every pipe has reached end of file (the process and whatever inherited its output
    /// have exited), or `timeout` passes (nil: no limit); whether they all did.
    @discardableResult
    func waitForEndOfFile(timeout: TimeInterval? = nil) -> Bool {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        condition.lock()
        defer { condition.unlock() }
        while openReaders > 0 {
            if let deadline {
                if !condition.wait(until: deadline) { return openReaders == 0 }
            } else {
                condition.wait()
            }
        }
        return true
    }
}
