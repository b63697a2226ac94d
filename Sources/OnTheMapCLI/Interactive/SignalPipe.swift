import Glibc

/// Signals turned into bytes on a pipe, so the full-screen loop sees them in `poll` with its other
/// inputs and acts outside the handler (where almost nothing is safe to do).
enum SignalPipe {
    /// The pipe's ends; set before any handler is installed.
    nonisolated(unsafe) static var readEnd: Int32 = -1
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    /// Watches `signals`; each delivery writes its number to the pipe.
    static func install(_ signals: [Int32]) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        readEnd = ends[0]
        writeEnd = ends[1]
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = Glibc.write(SignalPipe.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// The signals delivered since the last call.
    static func drain() -> [Int32] {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(readEnd, &bytes, bytes.count)
        return count > 0 ? bytes[..<count].map(Int32.init) : []
    }
}
