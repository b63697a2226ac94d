import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC

extension Daemon {
    /// The `status` result as of now. An expired session is ended first, so the answer and the
    /// notifications agree that it is over.
    func status() async -> StatusResult {
        _ = await liveSession()
        return status(of: state.current)
    }

    /// What `status` says of `snapshot`, with the uptime as of now. The API's URL without a user
    /// and password in it: clients show it (`status`, `signup`, an offline `logout`).
    func status(of snapshot: DaemonSnapshot) -> StatusResult {
        snapshot.status(version: Self.version, apiURL: APIConfiguration.withoutUserInfo(configuration.apiURL), uptime: uptime())
    }

    /// Seconds since the daemon started, to the millisecond.
    func uptime() -> Double {
        ((ContinuousClock.now - startedAt).seconds * 1000).rounded() / 1000
    }
}
