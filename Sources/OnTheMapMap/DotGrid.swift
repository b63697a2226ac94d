/// A grid of dots, one bit each, rows padded to whole 64-bit words.
struct DotGrid {
    let width: Int
    let height: Int
    let wordsPerRow: Int
    var words: [UInt64]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        wordsPerRow = (width + 63) / 64
        words = [UInt64](repeating: 0, count: wordsPerRow * height)
    }

    @inline(__always)
    mutating func set(_ x: Int, _ y: Int) {
        words[y * wordsPerRow + x >> 6] |= 1 << UInt64(x & 63)
    }

    @inline(__always)
    mutating func toggle(_ x: Int, _ y: Int) {
        words[y * wordsPerRow + x >> 6] ^= 1 << UInt64(x & 63)
    }

    /// Turns toggles into spans: each dot becomes the parity of the toggles at or left of it.
    mutating func accumulateRows() {
        words.withUnsafeMutableBufferPointer { words in
            for row in 0..<height {
                var carry: UInt64 = 0
                for index in row * wordsPerRow..<(row + 1) * wordsPerRow {
                    var word = words[index]
                    word ^= word << 1
                    word ^= word << 2
                    word ^= word << 4
                    word ^= word << 8
                    word ^= word << 16
                    word ^= word << 32
                    word ^= carry
                    words[index] = word
                    carry = word >> 63 == 1 ? ~0 : 0
                }
            }
        }
        // Dots past the right edge may have been turned on; clear them.
        let spare = wordsPerRow * 64 - width
        if spare > 0 {
            let mask = ~UInt64(0) >> UInt64(spare)
            for row in 0..<height { words[(row + 1) * wordsPerRow - 1] &= mask }
        }
    }

    /// The 8 dots of cell (`row`, `col`) as braille bits: dots 1,2,3,7 down the left, 4,5,6,8 down the right.
    @inline(__always)
    func cellBits(row: Int, col: Int) -> UInt8 {
        let x = 2 * col
        let shift = UInt64(x & 63)
        let base = 4 * row * wordsPerRow + x >> 6
        let r0 = UInt8(truncatingIfNeeded: words[base] >> shift & 3)
        let r1 = UInt8(truncatingIfNeeded: words[base + wordsPerRow] >> shift & 3)
        let r2 = UInt8(truncatingIfNeeded: words[base + 2 * wordsPerRow] >> shift & 3)
        let r3 = UInt8(truncatingIfNeeded: words[base + 3 * wordsPerRow] >> shift & 3)
        return (r0 & 1) | (r1 & 1) << 1 | (r2 & 1) << 2 | (r0 & 2) << 2 | (r1 & 2) << 3 | (r2 & 2) << 4
            | (r3 & 1) << 6 | (r3 & 2) << 6
    }
}
