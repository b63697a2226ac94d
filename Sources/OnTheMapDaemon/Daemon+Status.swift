import Foundation
import OnTheMapModels
import OnTheMapSystemd

extension Daemon {
    /// The daemon's version, as `status` reports it.
    public static let version = "0.1.0"

    /// The `status` result.
    func statusJSON() async -> WireJSON {
        let account = await sessions.current() != nil ? await sessions.account : nil
        let uptime = ContinuousClock.now - startedAt
        return .object([
            ("version", .string(Self.version)),
            ("apiURL", .string(configuration.apiURL)),
            ("loggedIn", .bool(account != nil)),
            ("account", account.map(\.wireJSON) ?? .null),
            ("students", .object([
                ("count", .integer(await cache.count)),
                ("refreshedAt", (await cache.refreshedAt).map { .string(WireTimestamp.milliseconds($0)) } ?? .null),
                ("stale", .bool(await cache.isStale())),
                ("lastError", (await cache.lastError).map { .string($0) } ?? .null),
            ])),
            // Not in the list: status bars show the user's own pin without an upstream call.
            ("myPin", await myCachedPin(account)),
            ("busy", .array(await busy.activities.map { .string($0) })),
            ("uptime", .number(((Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18) * 1000).rounded() / 1000)),
        ])
    }

    private func myCachedPin(_ account: AccountInfo?) async -> WireJSON {
        guard let account, let pin = await cache.newestLocation(ofAccount: account.key) else { return .null }
        return .object([
            ("objectId", .string(pin.objectId)), ("mapString", .string(pin.mapString)),
            ("latitude", .number(pin.latitude)), ("longitude", .number(pin.longitude)),
        ])
    }

    /// A short line for `systemctl --user status`.
    func statusLine(retryIn: Duration? = nil) async -> String {
        guard await sessions.current() != nil, let account = await sessions.account else { return "logged out" }
        if let error = await cache.lastError {
            let retry = retryIn.map { ", retrying in \($0.components.seconds) s" } ?? ""
            return "logged in as \(account.shortName); upstream failing (\(error.prefix(80)))\(retry)"
        }
        let count = await cache.count
        guard let refreshedAt = await cache.refreshedAt else { return "logged in as \(account.shortName); no students yet" }
        return "logged in as \(account.shortName); \(count) students, refreshed \(RelativeTime.describe(refreshedAt, now: Date()))"
    }

    /// Tells systemd and subscribers the status.
    func publishStatus() async {
        notifier.status(await statusLine())
        await events.publish(.status, await statusJSON())
    }
}
