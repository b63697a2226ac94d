import ServiceLifecycle
import OnTheMapAPI

/// Why `WakeSignal.wait(atMost:)` returned.
enum Wake {
    case elapsed, signalled, stopping
}

extension WakeSignal {
    /// Waits for a signal, for at most `delay` (without limit when nil); `.stopping` once the
    /// daemon shuts down gracefully or the task is cancelled.
    func wait(atMost delay: Duration?) async -> Wake {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Wake.self) { group in
                if let delay {
                    group.addTask {
                        do {
                            try await EventLoopTimer.sleep(for: delay)
                            return .elapsed
                        } catch {
                            return .stopping
                        }
                    }
                }
                group.addTask {
                    await self.wait()
                    return Task.isCancelled ? .stopping : .signalled
                }
                let first = await group.next() ?? .stopping
                group.cancelAll()
                return first
            }
        }
    }
}
