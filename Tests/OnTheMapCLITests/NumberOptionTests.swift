import Foundation
import OnTheMapTestSupport
import Testing

/// Every number `onthemap` takes names its range when it is out of it, a negative one included: `-3`
/// read as a flag and said "Missing value for '--width'" (or, for `open -1`, "Missing expected
/// argument"). Checked before the daemon is asked: no daemon runs here.
@Suite("Numbers out of range", .ownThreads)
struct NumberOptionTests {
    @Test(arguments: [
        (["map", "--width", "-3"], "--width must be from 10 to 1000."),
        (["map", "--height", "-2"], "--height must be from 5 to 1000."),
        (["map", "--near", "Lima", "--radius", "-5"], "--radius must be from 0.1 to 20100 km."),
        (["students", "--limit", "-3"], "--limit must be from 0 to 100000."),
        (["students", "--near", "Paris", "--radius", "-1"], "--radius must be from 0.1 to 20100 km."),
        (["students", "--near", "Paris", "--radius", "0"], "--radius must be from 0.1 to 20100 km."),
        (["open", "-1"], "the row number must be 1 or more."),
        (["open", "0"], "the row number must be 1 or more."),
        (["open", "--frobnicate"], "unknown option '--frobnicate'. `onthemap open --help` lists the options."),
        (["open"], "give a row number or a name, e.g. `onthemap open 3`."),
        // `--` ends the options, as everywhere; several numbers are rows, one at a time.
        (["open", "--", "-1"], "the row number must be 1 or more."),
        (["open", "1", "2"], "give one row number at a time, e.g. `onthemap open 1`."),
        // A blank place is a usage error too, not the daemon's refusal of an empty query.
        (["students", "--near", " "], "--near needs a place or LAT,LON, e.g. --near \"Lima, Peru\" or --near 48.85,2.35."),
        (["map", "--near", ""], "--near needs a place or LAT,LON, e.g. --near \"Lima, Peru\" or --near 48.85,2.35."),
        // A search with nothing it reads would match everyone.
        (["students", "--search", ""], "--search needs a letter or a digit: punctuation and spaces are not searched."),
        (["students", "--search", ". %{"], "--search needs a letter or a digit: punctuation and spaces are not searched."),
    ])
    func aNumberOutOfRangeIsAUsageErrorNamingTheRange(arguments: [String], message: String) throws {
        let result = try runCommand(
            BuiltProducts.path("onthemap"), arguments, environment: ["ONTHEMAP_SOCKET": "/nonexistent/sock", "XDG_CACHE_HOME": "/nonexistent/cache"])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        // After "onthemap: " (ArgumentParser's "Error: " was the one prefix of its own), begun in lower case.
        #expect(result.stderr.hasPrefix("onthemap: \(message)\nUsage: onthemap \(arguments[0]) "), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
