import NIOCore
import NIOConcurrencyHelpers

/// A way to end an operation early from outside it, with an error: `AbandoningDeadline.run` gives up on the
/// operation when this fires, as it does when the time runs out.
///
/// Used for PostgreSQL outages: requests that were already waiting for a connection when the replica
/// learns the database is out are answered at once (`PostgresPool.abandonWhenOut`), instead of each
/// waiting for its deadline.
final class Abandonment: Sendable {
    private enum State {
        case idle
        case armed(@Sendable (any Error) -> Void)
        case fired(any Error)
        case done
    }

    /// Guards the state; held only to move it along, never while calling out.
    private let state = NIOLockedValueBox(State.idle)

    /// Calls `giveUp` when the abandonment fires (at once if it already has). Once only.
    func arm(_ giveUp: @escaping @Sendable (any Error) -> Void) {
        let fired: (any Error)? = state.withLockedValue { state in
            switch state {
            case .idle:
                state = .armed(giveUp)
                return nil
            case .fired(let error):
                state = .done
                return error
            case .armed, .done:
                return nil
            }
        }
        if let fired { giveUp(fired) }
    }

    /// Abandons the operation with `error`, if it is still running.
    func fire(_ error: any Error) {
        let giveUp: (@Sendable (any Error) -> Void)? = state.withLockedValue { state in
            switch state {
            case .idle:
                state = .fired(error)
                return nil
            case .armed(let giveUp):
                state = .done
                return giveUp
            case .fired, .done:
                return nil
            }
        }
        giveUp?(error)
    }
}
