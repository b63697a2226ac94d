import FoundationEssentials
import Logging
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// The one owner of the daemon's state: session and account, the cached students, your pin, what is
/// busy, the last error and when the list was refreshed. Every change makes a new `DaemonSnapshot`
/// and publishes it on `feed`; nothing else writes state, and everything that mirrors it reads the
/// feed. The session and the list are also kept in 0600 files, so a restart needs no new login.
///
/// Actor-isolated. Mutations are synchronous (no `await` between reading and writing the snapshot),
/// so the actor's reentrancy cannot interleave two of them; where a change depends on an upstream
/// answer that arrived after an `await` (a refresh, a posted pin), it names the session it was made
/// for and is dropped when that session has ended meanwhile. The two that place a pin in the list
/// off the actor check again after that `await`: the session, and whether the list they placed it
/// in is still the one in hand.
actor DaemonState {
    nonisolated let feed: StateFeed
    private var snapshot: DaemonSnapshot
    private let paths: StatePaths
    /// The API this daemon talks to, without user info; a saved session for another is not loaded.
    private let apiURL: String
    private let logger: Logger
    /// How many of each activity run now; `snapshot.busy` lists the names.
    private var running: [String: Int] = [:]
    /// Sessions whose end is being recorded (their files removed) right now.
    private var ending: Set<String> = []
    /// The refresh under way, which later callers for the same session share.
    private var inFlightRefresh: (sessionID: String, task: Task<Void, any Error>)?
    /// Pins posted so far (`recordPostedPin`). A refresh that fetched while one was posted may have
    /// read the list before the write, with the pin at its old place or not at all.
    private var postsRecorded = 0
    /// Posted pins being placed off the actor right now (what a test of two posts at once waits for).
    private(set) var postsBeingPlaced = 0

    init(paths: StatePaths, apiURL: String, staleAfter: TimeInterval, logger: Logger) {
        snapshot = DaemonSnapshot(staleAfter: staleAfter)
        feed = StateFeed(snapshot)
        self.paths = paths
        self.apiURL = apiURL
        self.logger = logger
    }

    /// The newest snapshot, read without waiting for the actor: every change publishes on `feed`
    /// before the actor does anything else, so the feed's newest is the actor's own. Requests only
    /// read state: 32 clients asking `status` back to back queued in the actor, twice each, and some
    /// waited over 100 ms for their turn.
    nonisolated var current: DaemonSnapshot { feed.latest }

    /// Answers once the actor runs: the watchdog's sign that it is not wedged.
    func answer() {}

    /// The socket accepts and systemd was told so.
    func markReady() { change { $0.ready = true } }

    /// Applies `change` and publishes the result as the next version.
    private func change(_ change: (inout DaemonSnapshot) -> Void) {
        change(&snapshot)
        snapshot.version += 1
        feed.publish(snapshot)
    }

    // MARK: Start-up

    /// Loads the session and the list saved by an earlier run; a session that expired meanwhile, or
    /// files that cannot be read, are dropped (with the list: it belongs to the session). A session
    /// made with another API is left as it is and not used: its secret is never sent to this one,
    /// and a daemon started against its own API again finds it.
    func load(now: Date = Date()) async {
        for file in [paths.sessionFile, paths.cacheFile] {
            if let tightened = PrivateFile.tightenDirectory(of: file) { logger.notice("\(tightened)") }
        }
        guard let bytes = PrivateFile.read(paths.sessionFile) else {
            await PrivateFile.remove(paths.cacheFile)
            return
        }
        guard let saved = SessionFile(fileContents: bytes) else {
            logger.warning("ignoring an unreadable session file; log in again", metadata: ["path": "\(paths.sessionFile)"])
            return await removeFiles()
        }
        if let madeWith = saved.apiURL, madeWith != apiURL {
            logger.notice("the saved session was made with \(madeWith), not \(apiURL): log in again to use this one")
            return
        }
        guard !saved.session.isExpired(at: now) else {
            logger.info("the saved session has expired; log in again")
            return await removeFiles()
        }
        Self.keepOutOfTheLog(saved.session)
        let cached = PrivateFile.read(paths.cacheFile).flatMap { bytes in
            let list = StudentsFile(fileContents: bytes)
            if list == nil {
                logger.warning("ignoring an unreadable cache file; the next refresh fetches the list", metadata: ["path": "\(paths.cacheFile)"])
            }
            return list
        }
        // At start-up, before the socket listens: nothing waits for the actor yet.
        let students = cached.map { StudentList($0.locations, accountKey: saved.account.key) }
        change { state in
            state.session = saved.session
            state.account = saved.account
            if let cached, let students {
                state.takeList(students, as: cached)
                state.myPin = students.newestLocation(ofAccount: saved.account.key)
            }
        }
    }

    // MARK: Busy

    /// Runs `body`, listing `activity` in `busy` meanwhile.
    func track<T: Sendable>(_ activity: String, _ body: @Sendable () async throws -> T) async rethrows -> T {
        running[activity, default: 0] += 1
        if running[activity] == 1 { change { $0.busy = running.keys.sorted() } }
        defer {
            running[activity, default: 1] -= 1
            if running[activity] == 0 {
                running[activity] = nil
                change { $0.busy = running.keys.sorted() }
            }
        }
        return try await body()
    }

    // MARK: Session

    /// Takes `session` as the live one, forgetting any list of an earlier session.
    func logIn(_ session: APISession, account: AccountInfo) async {
        Self.keepOutOfTheLog(session)
        let listBelongsToAnother = snapshot.account?.key != account.key
        change { state in
            state.session = session
            state.account = account
            state.sessionEnd = nil
            if listBelongsToAnother { state.forgetList() }
            state.lastError = nil
            state.retryAt = nil
        }
        do {
            try await PrivateFile.write(try SessionFile(session: session, account: account, apiURL: apiURL).bytes(), to: paths.sessionFile)
        } catch {
            logger.warning("could not save the session; a restart will need a new login", metadata: ["error": "\(error)"])
        }
    }

    /// Ends the session named (any, when `sessionID` is nil) and forgets its list, on disk and then
    /// in memory, so whoever hears of the end finds the files gone; true when this call ended it. A
    /// late answer about an older session leaves a newer one alone.
    func endSession(_ reason: SessionEnd, ifSessionID sessionID: String?) async -> Bool {
        guard let session = snapshot.session, sessionID == nil || session.sessionID == sessionID,
            !ending.contains(session.sessionID)
        else { return false }
        // Nothing more is recorded for it while its files go (see `isCurrent`).
        ending.insert(session.sessionID)
        await removeFiles()
        ending.remove(session.sessionID)
        // A login meanwhile replaced it (its file was written after the removal): nothing to clear.
        guard snapshot.session?.sessionID == session.sessionID else { return true }
        change { state in
            state.session = nil
            state.account = nil
            state.sessionEnd = reason
            state.forgetList()
            state.lastError = nil
            state.retryAt = nil
        }
        return true
    }

    /// The session's file and the list's, which belongs to it.
    private func removeFiles() async {
        await PrivateFile.remove(paths.sessionFile)
        await PrivateFile.remove(paths.cacheFile)
    }

    /// Whether `session` is the live one and not being ended: what an answer that arrived for it
    /// may still change.
    private func isCurrent(_ session: APISession) -> Bool {
        snapshot.session?.sessionID == session.sessionID && !ending.contains(session.sessionID)
    }

    /// The session's secrets are redacted from every log line from now on (see `LogRedaction`).
    private static func keepOutOfTheLog(_ session: APISession) {
        LogRedaction.register(session.sessionID)
        LogRedaction.register(session.xsrfToken)
    }

    // MARK: The list

    /// Fetches the list for `session` with `fetch` (given the tags of the list in hand; nil back:
    /// nothing changed since) and installs it; callers for the same session while one runs share it.
    /// A failure keeps the old list, sets `lastError`, and is thrown.
    func refresh(
        for session: APISession, _ fetch: @escaping @Sendable (_ tags: ListTags?) async throws -> FetchedList?
    ) async throws {
        if let inFlightRefresh, inFlightRefresh.sessionID == session.sessionID {
            return try await inFlightRefresh.task.value
        }
        let tags = snapshot.listTags
        let task = Task { try await self.runRefresh(for: session, tags: tags, fetch) }
        inFlightRefresh = (session.sessionID, task)
        defer { if inFlightRefresh?.task == task { inFlightRefresh = nil } }
        try await task.value
    }

    private func runRefresh(
        for session: APISession, tags: ListTags?, _ fetch: @Sendable (ListTags?) async throws -> FetchedList?
    ) async throws {
        var postsPlaced = postsRecorded
        let fetched: FetchedList?
        do {
            fetched = try await fetch(tags)
        } catch {
            if isCurrent(session) { change { $0.lastError = "\(error)" } }
            throw error
        }
        guard let account = snapshot.account, isCurrent(session) else { return }
        let now = Date()
        guard let fetched else {
            // Not modified: the list in hand is as new as the upstream's.
            change { state in
                state.refreshedAt = now
                state.lastError = nil
                state.retryAt = nil
            }
            return
        }
        var list = fetched.students
        // Your pin as the posts made during the fetch left it, placed off the actor (another post
        // may come meanwhile), unless the list holds it as new already.
        while postsPlaced != postsRecorded, let mine = snapshot.myPin {
            postsPlaced = postsRecorded
            guard list.holdsOlder(than: mine, ofAccount: account.key) else { continue }
            let unplaced = list
            list = await Daemon.work.perform {
                unplaced.placing(mine, accountKey: account.key, capacity: fetched.capacity)
            }
        }
        guard isCurrent(session) else { return }
        let skippedWhy = SkippedRecord.summary(fetched.skipped)
        if let skippedWhy { logger.notice("the list has records no map can show: \(skippedWhy)") }
        let file = StudentsFile(
            locations: list.locations, refreshedAt: now, tags: fetched.tags, skipped: fetched.skipped.count,
            skippedWhy: skippedWhy)
        change { state in
            state.takeList(list, as: file)
            state.lastError = nil
            state.retryAt = nil
            // A pin older than the list's oldest is still yours: kept as the last write showed it.
            if let mine = list.newestLocation(ofAccount: account.key) { state.myPin = mine }
        }
        // Saved after the answer: the list in memory is what clients read.
        saveSoon(file)
    }

    private func saveSoon(_ file: StudentsFile) {
        PrivateFile.writeSoon(file, to: paths.cacheFile) { [logger] error in
            logger.warning("could not save the student cache", metadata: ["error": "\(error)"])
        }
    }

    /// Notes when the refresher tries again after a failure (shown in the status line).
    func retry(at date: Date?) {
        guard snapshot.retryAt != date else { return }
        change { $0.retryAt = date }
    }

    /// Records your pin as an upstream write or read for `session` returned it.
    func recordPin(_ pin: StudentLocation?, for session: APISession) {
        guard isCurrent(session) else { return }
        change { $0.myPin = pin }
    }

    /// Puts the pin the server just confirmed first in the cached list for `session` (placed off the
    /// actor, `Daemon.work`), and records it as yours. A refresh that lands meanwhile may have read
    /// the server's list before the write: the pin is placed again, in its list.
    func recordPostedPin(_ pin: StudentLocation, capacity: Int, for session: APISession) async {
        while isCurrent(session), let account = snapshot.account {
            // A later post of the same pin, recorded first, is not undone.
            if let mine = snapshot.myPin, mine.objectId == pin.objectId, pin.isOlder(than: mine) {
                return
            }
            let (listVersion, students) = (snapshot.listVersion, snapshot.students)
            postsBeingPlaced += 1
            let list = await Daemon.work.perform { students.placing(pin, accountKey: account.key, capacity: capacity) }
            postsBeingPlaced -= 1
            // Ended meanwhile (its files going), or the list replaced: nothing, or placed again.
            guard isCurrent(session) else { return }
            guard snapshot.listVersion == listVersion else { continue }
            postsRecorded += 1
            change { state in
                state.myPin = pin
                state.students = list
                state.listVersion += 1
                // The server's list changed with this write: the tag in hand no longer names it.
                state.listTags = nil
            }
            guard let refreshedAt = snapshot.refreshedAt else { return }
            // Saved as a refresh's list is: a daemon restarted before the next refresh shows this pin,
            // not the one it replaced.
            let file = StudentsFile(
                locations: list.locations, refreshedAt: refreshedAt, tags: nil, skipped: snapshot.skipped,
                skippedWhy: snapshot.skippedWhy)
            saveSoon(file)
            return
        }
    }
}

/// A list fetched by a refresh: the students, built off the actor, the cache size it was fetched for,
/// their tags, and the records left out.
struct FetchedList: Sendable {
    var students: StudentList
    /// The cache size it was fetched for: the most students it may hold.
    var capacity: Int
    var tags: ListTags?
    var skipped: [SkippedRecord]
}
