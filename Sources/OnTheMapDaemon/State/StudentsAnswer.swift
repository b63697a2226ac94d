import Foundation
import OnTheMapModels

/// The result of `students`: `{"students":[…],"total":N,"refreshedAt":…,"stale":…}`.
struct StudentsAnswer {
    /// Each student's JSON, as the cache keeps it (`StudentCache.Entry.json`).
    var students: [ArraySlice<UInt8>]
    /// With `near`: each student's distance from that point, in the same order.
    var distancesKm: [Double]? = nil
    var total: Int
    var refreshedAt: Date?
    var stale: Bool

    /// The answer's bytes, spliced from the students' JSON the cache wrote once per refresh: a
    /// 10,000-location answer took 111 ms when it built and walked a `WireJSON` tree per request.
    var serializedBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(80 + students.reduce(0) { $0 + $1.count + 1 })
        output.append(contentsOf: #"{"students":["#.utf8)
        for index in students.indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if let distancesKm {
                // The stored object with one member more, last: `…,"distanceKm":12.3}`. One decimal:
                // tens of metres are noise for a place typed as "City, Country".
                output.append(contentsOf: students[index].dropLast())
                output.append(contentsOf: #","distanceKm":"#.utf8)
                output.append(contentsOf: WireJSON.format((distancesKm[index] * 10).rounded() / 10).utf8)
                output.append(UInt8(ascii: "}"))
            } else {
                output.append(contentsOf: students[index])
            }
        }
        output.append(contentsOf: #"],"total":"#.utf8)
        output.append(contentsOf: String(total).utf8)
        output.append(contentsOf: #","refreshedAt":"#.utf8)
        if let refreshedAt {
            output.append(UInt8(ascii: "\""))
            WireTimestamp.writeMilliseconds(refreshedAt, into: &output)
            output.append(UInt8(ascii: "\""))
        } else {
            output.append(contentsOf: "null".utf8)
        }
        output.append(contentsOf: stale ? #","stale":true}"#.utf8 : #","stale":false}"#.utf8)
        return output
    }
}
