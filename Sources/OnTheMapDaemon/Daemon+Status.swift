import Foundation
import NIOCore
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSystemd

extension Daemon {
    /// The daemon's version, as `status` reports it.
    public static let version = OnTheMapVersion.string

    /// The `status` result, serialized: the stored answer and the uptime as of now.
    func statusResult() async -> String {
        await currentFastAnswers().statusPrefix + fastAnswers.statusSuffix()
    }

    /// The stored `status` and `students` answers, rebuilt first if state changed since.
    func currentFastAnswers() async -> FastAnswers.Entry {
        if let entry = fastAnswers.current() { return entry }
        let generation = fastAnswers.generation
        let session = await sessions.current()
        let status = await statusJSON(includingUptime: false).serialized
        let students = session == nil ? nil : await cache.currentDefaultAnswer()
        let deadlines = [await cache.staleDeadline(), session?.expiration].compactMap { $0 }
        let entry = FastAnswers.Entry(
            statusPrefix: String(status.dropLast()), students: students.map { ByteBuffer(string: $0) },
            validUntil: deadlines.min())
        fastAnswers.store(entry, builtAt: generation)
        return entry
    }

    /// The `status` result, as subscribers get it.
    func statusJSON(includingUptime: Bool = true) async -> WireJSON {
        await status(includingUptime: includingUptime).wireJSON
    }

    /// The daemon's state as `status` answers it.
    func status(includingUptime: Bool) async -> StatusResult {
        let account = await sessions.current() != nil ? await sessions.account : nil
        return StatusResult(
            version: Self.version, apiURL: configuration.apiURL, account: account,
            students: .init(
                count: await cache.count, unplaceable: await cache.unplaceable, refreshedAt: await cache.refreshedAt,
                stale: await cache.isStale(), lastError: await cache.lastError),
            // Not in the list: status bars show the user's own pin without an upstream call.
            myPin: await myCachedPin(account), busy: await busy.activities,
            uptime: includingUptime ? fastAnswers.uptime() : nil)
    }

    private func myCachedPin(_ account: AccountInfo?) async -> StatusResult.Pin? {
        guard let account, let pin = await cache.newestLocation(ofAccount: account.key) else { return nil }
        return StatusResult.Pin(objectId: pin.objectId, mapString: pin.mapString, latitude: pin.latitude, longitude: pin.longitude)
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

    /// When `statusLine()` next reads differently by time alone ("refreshed 2 min ago" after
    /// "1 min ago"); nil when it holds no time.
    func nextStatusLineChange() async -> Date? {
        guard await sessions.current() != nil, await cache.lastError == nil, let refreshedAt = await cache.refreshedAt else {
            return nil
        }
        return RelativeTime.nextChange(of: refreshedAt, now: Date())
    }

    /// Tells systemd and subscribers the status.
    func publishStatus() async {
        notifier.status(await statusLine())
        statusLineChanged.signal()
        await events.publish(.status, await statusJSON())
    }
}
