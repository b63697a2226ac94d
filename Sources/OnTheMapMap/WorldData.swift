import CWorldMap

/// The world's outlines in the embedded format written by scripts/build-world-map.py (docs/MAP.md):
/// Web Mercator coordinates quantised to 0…65535, delta-coded, at several levels of detail.
///
/// Read in place: nothing is decoded ahead of time, so the map costs the daemon no anonymous memory;
/// each drawing decodes only the features its view can see.
public struct WorldData: @unchecked Sendable {
    // @unchecked: `bytes` points at the executable's read-only data (or a test's buffer that outlives
    // this value), which nothing writes.
    let bytes: UnsafeRawBufferPointer
    /// The levels of detail, coarsest first.
    public let levels: [Level]

    /// The full width of the world in quanta.
    public static let quanta = 65535

    /// One level of detail: closed coast rings (the land's outline, filled by parity) and open
    /// border lines (drawn only).
    public struct Level: Sendable {
        /// How far (in quanta) simplification may move the outline.
        public let tolerance: Int
        let polygonTable: Int
        public let polygonCount: Int
        let lineTable: Int
        public let lineCount: Int
    }

    /// A polygon or line: where its points are, how many, and its bounding box in quanta.
    struct Feature {
        var offset: Int
        var count: Int
        var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    }

    /// The map built into this executable.
    public static let embedded: WorldData = {
        var count = 0
        let start = onthemap_world_bytes(&count)!
        return try! WorldData(bytes: UnsafeRawBufferPointer(start: start, count: count))
    }()

    /// Reads the header; the bytes must stay valid as long as this value is used.
    public init(bytes: UnsafeRawBufferPointer) throws(WorldDataError) {
        guard bytes.count >= 16, Array(bytes[0..<8]) == Array("OTMWORLD".utf8) else { throw .notAWorldMap }
        guard bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian == 1 else { throw .unsupportedVersion }
        let count = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        guard count > 0, bytes.count >= 16 + 32 * count else { throw .truncated }
        self.bytes = bytes
        levels = (0..<count).map { index in
            func field(_ k: Int) -> Int {
                Int(bytes.loadUnaligned(fromByteOffset: 16 + 32 * index + 4 * k, as: UInt32.self).littleEndian)
            }
            return Level(tolerance: field(0), polygonTable: field(2), polygonCount: field(1), lineTable: field(4), lineCount: field(3))
        }
        for level in levels {
            guard level.polygonTable + 16 * level.polygonCount <= bytes.count, level.lineTable + 16 * level.lineCount <= bytes.count
            else { throw .truncated }
        }
    }

    /// The coarsest level whose simplification stays under half a dot of `quantaPerDot`.
    public func level(forQuantaPerDot quantaPerDot: Double) -> Level {
        levels.first { Double($0.tolerance) <= quantaPerDot / 2 } ?? levels[levels.count - 1]
    }

    func feature(table: Int, index: Int) -> Feature {
        let base = table + 16 * index
        func u16(_ k: Int) -> Int32 { Int32(bytes.loadUnaligned(fromByteOffset: base + 8 + 2 * k, as: UInt16.self).littleEndian) }
        return Feature(
            offset: Int(bytes.loadUnaligned(fromByteOffset: base, as: UInt32.self).littleEndian),
            count: Int(bytes.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self).littleEndian),
            minX: u16(0), minY: u16(1), maxX: u16(2), maxY: u16(3))
    }

    /// Calls `body` with each point of a feature, in order, decoding as it goes.
    @inline(__always)
    func forEachPoint(of feature: Feature, _ body: (Int32, Int32) -> Void) {
        var position = feature.offset
        var x: Int32 = 0
        var y: Int32 = 0
        for _ in 0..<feature.count {
            x &+= readZigzag(&position)
            y &+= readZigzag(&position)
            body(x, y)
        }
    }

    @inline(__always)
    private func readZigzag(_ position: inout Int) -> Int32 {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            value |= UInt32(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int32(bitPattern: value >> 1) ^ -Int32(bitPattern: value & 1)
    }
}

/// Why bytes are not a world map this build can read.
public enum WorldDataError: Error, Sendable {
    case notAWorldMap
    case unsupportedVersion
    case truncated
}
