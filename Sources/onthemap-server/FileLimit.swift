import Foundation

/// The open-file limit, which bounds how many connections the server can hold.
enum FileLimit {
    /// Raises the soft limit to the hard one: a server holding a thousand connections needs more than
    /// the usual 1,024 descriptors, and the idle timeout, not the descriptor limit, should end them.
    static func raiseToHardLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
