import Foundation
import OnTheMapTestSupport
import Testing

/// The client is linked in the order `onthemap status` touches its code (`scripts/onthemap.order`).
/// The linker skips names it does not find, so a list that code changes have made stale still
/// builds and passes every other test: only the client's start-up gets slower (1.14x the C client
/// became 1.23x when 55 names had changed). This keeps the list current.
///
/// A stale list costs start-up time, not correctness: `make bench` runs this (it sets
/// `ONTHEMAP_CHECK_LINK_ORDER` and `ONTHEMAP_CLIENT` to the build of `scripts/build-client.sh`),
/// `make test` does not. A debug build is linked in no particular order. The script also
/// checks, from the link map, that none of that code sits after the standard library's (1.6 MB
/// that the order cannot split; Benchmarks/analysis.md, "Fifth look").
@Suite(
    "The client's link order matches what status touches", .ownThreads,
    .enabled(
        if: ProcessInfo.processInfo.environment["ONTHEMAP_CHECK_LINK_ORDER"] == "1",
        "a stale link order costs speed, not correctness: `make bench` checks it (ONTHEMAP_CHECK_LINK_ORDER=1)"),
    .enabled(if: BuiltProducts.releaseClient != nil, BuiltProducts.releaseClientMissing),
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind"),
        "needs Valgrind, which records what status touches (apt-get install valgrind)"))
struct ClientLinkOrderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    @Test func theListHoldsWhatStatusTouches() throws {
        let bed = try CLITestBed()
        let check = try runCommand(
            "/usr/bin/python3",
            [
                Self.root + "/scripts/client-symbol-order.py", "--check", Self.root + "/scripts/onthemap.order",
                BuiltProducts.path("onthemap"), bed.daemon.socketPath,
            ])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let touched = check.stdout.firstMatch(of: /of the ([0-9]+) symbols `onthemap status` touches are in/).map { Int($0.1)! }
        #expect((touched ?? 0) > 500, "\(check.stdout)")
    }
}
