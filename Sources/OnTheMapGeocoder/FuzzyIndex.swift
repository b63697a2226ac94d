/// Names of the larger places, regions and countries for catching misspellings ("Dusseldorff",
/// "Sao Paolo"), searched only when part of a query matches nothing exactly.
///
/// A candidate must start with the same letter and be within one edit (names of 5 to 8 letters) or
/// two edits (longer names), counting a swap of neighbours as one. Shorter names are never
/// corrected: too many real names lie one letter apart.
struct FuzzyIndex: Sendable {
    private struct Entry: Sendable {
        var offset: UInt32
        var length: UInt8
        var ref: EntityRef
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// For each first byte, the range of `entries` starting with it (filled by `finish`).
    private var buckets: [Range<Int>] = Array(repeating: 0..<0, count: 256)

    static let minimumLength = 5

    mutating func add(_ key: [UInt8], _ ref: EntityRef) {
        guard key.count >= Self.minimumLength, key.count <= 60, key[0] < 0x80 else { return }
        entries.append(Entry(offset: UInt32(bytes.count), length: UInt8(key.count), ref: ref))
        bytes.append(contentsOf: key)
    }

    mutating func finish() {
        let keyBytes = bytes
        entries.sort { keyBytes[Int($0.offset)] < keyBytes[Int($1.offset)] }
        var start = 0
        while start < entries.count {
            let first = bytes[Int(entries[start].offset)]
            var end = start
            while end < entries.count, bytes[Int(entries[end].offset)] == first { end += 1 }
            buckets[Int(first)] = start..<end
            start = end
        }
    }

    static func allowedEdits(forLength length: Int) -> Int {
        length >= 9 ? 2 : 1
    }

    /// The entities whose name is closest to `key`, if any is close enough, with the distance.
    func nearest(_ key: [UInt8]) -> (refs: [EntityRef], distance: Int)? {
        guard key.count >= Self.minimumLength, let first = key.first else { return nil }
        let allowed = Self.allowedEdits(forLength: key.count)
        var best = allowed + 1
        var refs: [EntityRef] = []
        var scratch = EditDistance()
        for entry in entries[buckets[Int(first)]] {
            let length = Int(entry.length)
            guard abs(length - key.count) <= min(best, allowed), length >= Self.minimumLength else { continue }
            let distance = bytes.withUnsafeBufferPointer { all in
                scratch.distance(
                    key, UnsafeBufferPointer(rebasing: all[Int(entry.offset)..<Int(entry.offset) + length]),
                    limit: min(best, allowed))
            }
            if distance < best {
                best = distance
                refs = [entry.ref]
            } else if distance == best {
                refs.append(entry.ref)
            }
        }
        return best <= allowed ? (refs, best) : nil
    }
}

/// Optimal string alignment distance (Levenshtein plus adjacent swaps), abandoned above a limit.
struct EditDistance {
    private var previous2: [Int] = []
    private var previous: [Int] = []
    private var current: [Int] = []

    /// The distance, or `limit + 1` when it is larger than `limit`.
    mutating func distance(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        let n = b.count
        guard n > 0, !a.isEmpty else { return min(max(n, a.count), limit + 1) }
        // The rows are reused between calls: this runs for thousands of candidates per query.
        if previous.count < n + 1 {
            previous2 = Array(repeating: 0, count: n + 1)
            previous = previous2
            current = previous2
        }
        for j in 0...n { previous[j] = j }
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...n {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous2, &previous)
            swap(&previous, &current)
        }
        return min(previous[n], limit + 1)
    }
}
