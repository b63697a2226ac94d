/// Runs pin writes one at a time, in arrival order: the next write reads the account's pin only after
/// the previous write finished, so concurrent `postPin`s never create a second pin.
///
/// An actor method alone would not do it: an actor is reentrant at every `await`, and a write awaits
/// the upstream. The lock is held across those awaits instead. Actor-isolated.
actor PinWriter {
    private var isWriting = false
    /// Writes waiting for their turn, first come first served.
    private var queue: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every earlier write has finished, and before any later one starts.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        guard isWriting else {
            isWriting = true
            return
        }
        // Ownership passes straight to the woken waiter: `isWriting` stays true.
        await withCheckedContinuation { queue.append($0) }
    }

    private func release() {
        if queue.isEmpty {
            isWriting = false
        } else {
            queue.removeFirst().resume()
        }
    }
}
