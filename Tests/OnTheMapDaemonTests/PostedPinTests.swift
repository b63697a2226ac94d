import Foundation
import Logging
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import SystemPackage
import Testing

@testable import OnTheMapDaemon

/// A pin posted while a refresh is fetching stays in the cached list when that refresh lands. The
/// refresh may have read the server's list before the write: it then holds the pin at its old place,
/// or not at all, and it used to replace the list that had the new pin, so `students` and `map`
/// showed the old place (and `mypin` too) until the next refresh, five minutes later.
@Suite("A posted pin and a refresh at the same time")
struct PostedPinTests {
    static let account = AccountInfo(key: "u-ada", firstName: "Ada", lastName: "Lovelace")
    static let session = APISession(accountKey: account.key, sessionID: "s-1", xsrfToken: nil, expiration: nil)

    static func pin(_ objectId: String, of key: String, at place: String, minutesAgo: Double) -> StudentLocation {
        let date = Date(timeIntervalSinceNow: -minutesAgo * 60)
        return StudentLocation(
            objectId: objectId, uniqueKey: key, firstName: "F\(objectId)", lastName: "L", mapString: place,
            mediaURL: "https://example.com/\(objectId)", latitude: 10, longitude: 20, createdAt: date, updatedAt: date)
    }

    /// The list as the refresh read it, before the write: Ada's pin at its old place.
    static let readBeforeTheWrite = [
        pin("o-1", of: "u-1", at: "Lima, Peru", minutesAgo: 1),
        pin("o-ada", of: account.key, at: "Paris, France", minutesAgo: 2),
        pin("o-2", of: "u-2", at: "Oslo, Norway", minutesAgo: 3),
    ]

    @Test(arguments: [true, false])
    func thePostedPinOutlivesARefreshThatReadTheListBefore(pinWasListed: Bool) async throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-posted")
        defer { home.remove() }
        let read =
            pinWasListed ? Self.readBeforeTheWrite : Self.readBeforeTheWrite.filter { $0.uniqueKey != Self.account.key }
        let state = try await Self.loggedIn(home, listing: read)
        let moved = Self.pin("o-ada", of: Self.account.key, at: "Kyoto, Japan", minutesAgo: 0)
        try await Self.post(moved, to: state, whileARefreshReads: read) {
            #expect(state.current.students.newestLocation(ofAccount: Self.account.key)?.mapString == "Kyoto, Japan")
        }

        let landed = state.current
        let adas = landed.students.locations.filter { $0.uniqueKey == Self.account.key }
        let places = landed.students.locations.map(\.mapString)
        #expect(adas.map(\.mapString) == ["Kyoto, Japan"], "after the refresh landed: \(places)")
        #expect(landed.students.locations.first?.objectId == "o-ada", "the newest pin comes first")
        #expect(landed.myPin?.mapString == "Kyoto, Japan")
        #expect(landed.students.count == read.count + (pinWasListed ? 0 : 1))
    }

    /// A refresh that read the list after the write (and after another student posted) already
    /// holds the pin: it keeps the list as read, newest first, rather than putting the pin first.
    @Test func aRefreshThatReadTheListAfterTheWriteKeepsItsOrder() async throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-posted")
        defer { home.remove() }
        let state = try await Self.loggedIn(home, listing: Self.readBeforeTheWrite)
        let moved = Self.pin("o-ada", of: Self.account.key, at: "Kyoto, Japan", minutesAgo: 0)
        let newer = Self.pin("o-3", of: "u-3", at: "Accra, Ghana", minutesAgo: -0.5)
        let readAfter = [newer, moved] + Self.readBeforeTheWrite.filter { $0.uniqueKey != Self.account.key }
        try await Self.post(moved, to: state, whileARefreshReads: readAfter)
        let order = state.current.students.locations.map(\.objectId)
        #expect(order == ["o-3", "o-ada", "o-1", "o-2"], "\(order)")
        #expect(state.current.myPin?.mapString == "Kyoto, Japan")
    }

    /// Two posts of your pin recorded at once (`onthemap post` and an editor's, one after the other):
    /// each places the pin off the actor, on the list it read. The one that finds the list changed
    /// meanwhile places its pin again on the newer list, or gives way to a newer pin already recorded;
    /// it used to be dropped, and with it the newer place.
    @Test func twoPostsRecordedAtOnceKeepTheNewerPlacedOnce() async throws {
        let older = Self.pin("o-ada", of: Self.account.key, at: "Kyoto, Japan", minutesAgo: 0.5)
        let newer = Self.pin("o-ada", of: Self.account.key, at: "Accra, Ghana", minutesAgo: 0)
        // Ten times, as the two tasks may reach the actor, and come back to it, in either order.
        for round in 1...10 {
            let home = try TemporaryDirectory(prefix: "onthemapd-posted")
            defer { home.remove() }
            let state = try await Self.loggedIn(home, listing: Self.readBeforeTheWrite)
            // The placing queue held, so both read the same list before either is placed; then let go.
            let (held, holding) = AsyncStream<Void>.makeStream()
            let release = DispatchSemaphore(value: 0)
            Daemon.work.async {
                holding.yield()
                release.wait()
            }
            for await _ in held { break }
            let first = Task { await state.recordPostedPin(older, capacity: 100, for: Self.session) }
            let second = Task { await state.recordPostedPin(newer, capacity: 100, for: Self.session) }
            // Both read the list and wait for the queue.
            let bothWaiting = await eventually { await state.postsBeingPlaced == 2 }
            release.signal()
            #expect(bothWaiting, "round \(round): the two posts did not both wait to be placed")
            await first.value
            await second.value

            let places = state.current.students.locations.map(\.mapString)
            let adas = state.current.students.locations.filter { $0.uniqueKey == Self.account.key }
            #expect(adas.map(\.mapString) == ["Accra, Ghana"], "round \(round): \(places)")
            #expect(state.current.myPin?.mapString == "Accra, Ghana", "round \(round)")
            #expect(state.current.students.count == Self.readBeforeTheWrite.count, "round \(round): \(places)")
        }
    }

    /// The daemon's state in `home`, logged in as Ada, its list `initial`.
    static func loggedIn(_ home: TemporaryDirectory, listing initial: [StudentLocation]) async throws -> DaemonState {
        let state = DaemonState(
            paths: StatePaths(
                sessionFile: .init(home.file("session")), cacheFile: .init(home.file("cache")),
                configFile: .init(home.file("config"))),
            apiURL: "http://127.0.0.1:9", staleAfter: 300, logger: Logger(label: "test"))
        await state.logIn(session, account: account)
        try await state.refresh(for: session) { _ in fetched(initial) }
        return state
    }

    /// Posts `pin` while a refresh's fetch holds `read` and has not landed; `beforeItLands` runs once
    /// the pin is recorded, then the refresh lands.
    static func post(
        _ pin: StudentLocation, to state: DaemonState, whileARefreshReads read: [StudentLocation],
        beforeItLands: () -> Void = {}
    ) async throws {
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let refresh = Task {
            try await state.refresh(for: session) { _ in
                startedSignal.yield()
                for await _ in release { break }
                return fetched(read)
            }
        }
        for await _ in started { break }
        await state.recordPostedPin(pin, capacity: 100, for: session)
        beforeItLands()
        releaseSignal.yield()
        try await refresh.value
    }

    static func fetched(_ locations: [StudentLocation]) -> FetchedList {
        FetchedList(students: StudentList(locations, accountKey: account.key), capacity: 100, tags: nil, skipped: [])
    }
}
