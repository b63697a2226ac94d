import Foundation

/// Runs blocking work (a socket read, a wait on a process) on a thread of its own and awaits it.
///
/// Swift Testing runs tests on the cooperative pool, which has as many threads as cores (two here).
/// A test that blocks one while it waits starves everything else on the pool, including the
/// in-process servers other tests stand up; blocking here holds no pool thread.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
