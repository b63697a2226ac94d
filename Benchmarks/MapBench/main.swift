// map-bench: how long drawing a map takes inside the daemon's process (no socket, no JSON).
//
//   swift run -c release map-bench [--rounds 200]
//
// Prints `key value` lines for Benchmarks/bench_map.py: the p50 and p90 in microseconds of drawing
// 80×24 cells with 100 pins and 200×60 with 10,000, braille, the whole world, with names (as `map`
// draws by default), and 80×24 without them; pins are spread over the inhabited latitudes by a fixed
// pseudo-random sequence, so every run draws the same maps.

import Foundation
import OnTheMapMap
import OnTheMapModels

var rounds = 200
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
    default:
        FileHandle.standardError.write(Data("usage: map-bench [--rounds N]\n".utf8))
        exit(64)
    }
}

/// A fixed sequence (a 64-bit LCG), so every run draws the same pins.
struct Sequence {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}

func pins(_ count: Int) -> [MapPoint] {
    var sequence = Sequence()
    return (0..<count).map { index in
        MapPoint(latitude: -50 + 120 * sequence.next(), longitude: -180 + 360 * sequence.next(), mine: index == 0)
    }
}

func measure(width: Int, height: Int, pins positions: [MapPoint], rounds: Int, labels: Bool = true) -> (p50: Double, p90: Double, inView: Int) {
    var samples: [Double] = []
    var inView = 0
    let clock = ContinuousClock()
    for round in 0..<(rounds + 10) {
        let start = clock.now
        let picture = MapRenderer.render(width: width, height: height, request: .world, charset: .braille, pins: positions, labels: labels)
        let elapsed = clock.now - start
        inView = picture.placements.count
        if round >= 10 {  // warm-up
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
    }
    samples.sort()
    return (samples[samples.count / 2], samples[samples.count * 9 / 10], inView)
}

_ = WorldData.embedded
let small = measure(width: 80, height: 24, pins: pins(100), rounds: rounds)
print("render_80x24_100_p50_us \(String(format: "%.1f", small.p50))")
print("render_80x24_100_p90_us \(String(format: "%.1f", small.p90))")
print("render_80x24_100_in_view \(small.inView)")
let plain = measure(width: 80, height: 24, pins: pins(100), rounds: rounds, labels: false)
print("render_80x24_100_nolabels_p50_us \(String(format: "%.1f", plain.p50))")
let large = measure(width: 200, height: 60, pins: pins(10_000), rounds: max(rounds / 4, 20))
print("render_200x60_10000_p50_us \(String(format: "%.1f", large.p50))")
print("render_200x60_10000_p90_us \(String(format: "%.1f", large.p90))")
print("render_200x60_10000_in_view \(large.inView)")
