/// Whether the daemon has told systemd it is ready. Actor-isolated.
actor Readiness {
    private(set) var isReady = false
    /// Tasks waiting in `wait()`, by a token so a cancelled one can leave.
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextToken = 0

    func markReady() {
        isReady = true
        for waiter in waiters.values { waiter.resume() }
        waiters = [:]
    }

    /// Returns once ready, or at once when the calling task is cancelled (a daemon that stops before
    /// it was ever ready must not leave a service waiting here).
    func wait() async {
        if isReady { return }
        let token = nextToken
        nextToken += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if isReady || Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[token] = continuation
                }
            }
        } onCancel: {
            Task { await self.leave(token) }
        }
    }

    private func leave(_ token: Int) {
        waiters.removeValue(forKey: token)?.resume()
    }
}
