import Foundation

extension ServerProcess {
    /// The server's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Sends `signal` without waiting.
    public func signal(_ signal: Int32) {
        if process.isAlive { kill(process.processIdentifier, signal) }
    }

    /// Waits up to `timeout` for the process to exit; its exit status, or nil if it still runs.
    public func waitForExit(timeout: TimeInterval = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        return process.waitForExit(timeout: deadline.timeIntervalSinceNow)
    }
}
