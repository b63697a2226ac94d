// geocoder-bench: accuracy on the query set, time per query and memory of the offline geocoder.
//
//   swift run -c release geocoder-bench [--queries Benchmarks/geocoder/queries.tsv] [--rounds 20] [--failures]
//
// Prints `key value` lines (for scripts/bench.sh) and, with --failures, every query answered wrongly.

import Foundation
import GeocoderQuerySet
import OnTheMapGeocoder
import OnTheMapModels

func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

var queriesPath = "Benchmarks/geocoder/queries.tsv"
var rounds = 20
var showFailures = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--queries": queriesPath = arguments.next() ?? queriesPath
    case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
    case "--failures": showFailures = true
    default:
        FileHandle.standardError.write(Data("usage: geocoder-bench [--queries PATH] [--rounds N] [--failures]\n".utf8))
        exit(64)
    }
}

let querySet = try GeocoderQuerySet(tsv: String(contentsOfFile: queriesPath, encoding: .utf8))
let geocoder = OfflineGeocoder()

let rssBefore = residentKilobytes()
let loadStart = ContinuousClock.now
OfflineGeocoder.preload()
let loadTime = ContinuousClock.now - loadStart
let rssAfter = residentKilobytes()

var correct: [String: (right: Int, total: Int)] = [:]
for query in querySet.queries {
    let best = geocoder.search(query.text, limit: 1).first
    let kind = query.expectation.kind
    let right = GeocoderQuerySet.isCorrect(best, for: query.expectation)
    correct[kind, default: (0, 0)].total += 1
    if right { correct[kind, default: (0, 0)].right += 1 }
    if !right && showFailures {
        let answer =
            best.map {
                "\($0.name), \($0.admin1), \($0.countryCode) (\($0.precision), \($0.latitude), \($0.longitude), score \($0.score))"
            } ?? "no result"
        print("WRONG \(query.text.debugDescription): \(answer)")
    }
}

var durations: [Duration] = []
durations.reserveCapacity(rounds * querySet.queries.count)
for _ in 0..<rounds {
    for query in querySet.queries {
        let start = ContinuousClock.now
        _ = geocoder.search(query.text, limit: 5)
        durations.append(ContinuousClock.now - start)
    }
}
durations.sort()
func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}
let rssAfterQueries = residentKilobytes()

let places = correct.filter { $0.key != "junk" }.values.reduce((0, 0)) { ($0.0 + $1.right, $0.1 + $1.total) }
let junk = correct["junk"] ?? (0, 0)
print("queries \(querySet.queries.count)")
for kind in ["locality", "region", "country", "junk"] {
    let value = correct[kind] ?? (0, 0)
    print("correct_\(kind) \(value.right)/\(value.total)")
}
print(String(format: "accuracy_percent %.1f", 100 * Double(places.0) / Double(max(places.1, 1))))
print(String(format: "junk_rejected_percent %.1f", 100 * Double(junk.right) / Double(max(junk.total, 1))))
print(String(format: "p50_us %.1f", microseconds(durations[durations.count / 2])))
print(String(format: "p99_us %.1f", microseconds(durations[durations.count * 99 / 100])))
print(String(format: "load_ms %.1f", microseconds(loadTime) / 1000))
print(String(format: "rss_added_mib %.1f", Double(rssAfter - rssBefore) / 1024))
print(String(format: "rss_added_after_queries_mib %.1f", Double(rssAfterQueries - rssBefore) / 1024))
