/// Every folded name → what it names, as one sorted array of 64-bit words: a 43-bit hash of the name,
/// one bit saying whether the name is only an alternate name of the entity, and a 20-bit
/// `EntityRef`. Three megabytes for ~400,000 names, no per-name allocation, and a lookup is a binary
/// search. With 43 bits, a name that is not in the index matches by accident about once in 20
/// million lookups.
struct NameIndex: Sendable {
    private var words: [UInt64] = []

    private static let aliasBit: UInt64 = 1 << 20

    /// Adds a name; `isAlias` when it is one of the entity's alternate names, not its own.
    mutating func add(hash: UInt64, _ ref: EntityRef, isAlias: Bool) {
        words.append((hash >> 21) << 21 | (isAlias ? Self.aliasBit : 0) | ref.packed)
    }

    /// Sorts and drops duplicates; call once after the last `add`.
    mutating func finish() {
        words.sort()
        var unique: [UInt64] = []
        unique.reserveCapacity(words.count)
        for word in words where word != unique.last { unique.append(word) }
        words = unique
    }

    var count: Int { words.count }

    /// What the name with this hash stands for (empty when nothing), each once: as its own name if
    /// it is that (`isAlias` false), else as an alternate name.
    func lookup(hash: UInt64) -> [(ref: EntityRef, isAlias: Bool)] {
        let prefix = (hash >> 21) << 21
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle] < prefix { low = middle + 1 } else { high = middle }
        }
        // Sorted: an entity's own-name word (alias bit clear) comes before its alternate-name word.
        var refs: [(ref: EntityRef, isAlias: Bool)] = []
        while low < words.count, words[low] >> 21 == prefix >> 21 {
            let ref = EntityRef(packed: words[low] & 0xFFFFF)
            if !refs.contains(where: { $0.ref == ref }) { refs.append((ref, words[low] & Self.aliasBit != 0)) }
            low += 1
        }
        return refs
    }

    /// FNV-1a, extended one word at a time as a span of the query grows.
    struct Hasher {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
        private var isEmpty = true

        mutating func combine(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }

        /// Adds a word, with the separating space before all but the first.
        mutating func combine(word: some Collection<UInt8>) {
            if !isEmpty { combine(0x20) }
            isEmpty = false
            for byte in word { combine(byte) }
        }

        static func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
            var hasher = Hasher()
            for byte in bytes { hasher.combine(byte) }
            return hasher.value
        }
    }
}
