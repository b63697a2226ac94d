import CWorldMap

/// The place names a map may show, in the embedded format written by scripts/build-map-labels.py
/// (docs/MAP.md): countries most prominent first, then places of 50,000 or more, most populous first.
///
/// Read in place, as `WorldData` is: nothing is decoded ahead of time and nothing is kept, so labels
/// cost the daemon no anonymous memory.
public struct MapLabels: @unchecked Sendable {
    // @unchecked: `bytes` points at the executable's read-only data (or a test's buffer that outlives
    // this value), which nothing writes.
    let bytes: UnsafeRawBufferPointer
    /// How many countries, then places, the records hold.
    public let countryCount: Int
    public let placeCount: Int
    let stringsOffset: Int

    /// The format's version: 2 gives each place its region.
    static let version = 2
    static let headerSize = 24
    static let recordSize = 20
    /// A place's `country` when it has none.
    static let noCountry = 0xFFFF

    /// One name on the map: a country's (with its rank) or a place's (with its country).
    struct Entry {
        /// Web Mercator in quanta (0…65535 across the world), as `WorldData`.
        var x: Int32
        var y: Int32
        var population: UInt32
        /// Natural Earth's label rank, 2 (most prominent) up; 0 for places.
        var rank: UInt8
        /// The index of a place's country among the countries, or `noCountry`.
        var country: Int
        /// How large a country is drawn, in quanta: the square root of its largest ring's area on the
        /// map (0 for places).
        var extent: Int32
        let nameOffset: Int
        let nameLength: Int
        let asciiLength: Int
        /// A country's short name's, a place's region's.
        let thirdLength: Int
    }

    /// The labels built into this executable.
    public static let embedded: MapLabels = {
        var count = 0
        let start = onthemap_labels_bytes(&count)!
        return try! MapLabels(bytes: UnsafeRawBufferPointer(start: start, count: count))
    }()

    /// Reads the header; the bytes must stay valid as long as this value is used.
    public init(bytes: UnsafeRawBufferPointer) throws(WorldDataError) {
        guard bytes.count >= Self.headerSize, Array(bytes[0..<8]) == Array("OTMLABEL".utf8) else { throw .notAWorldMap }
        func u32(_ offset: Int) -> Int { Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian) }
        guard u32(8) == Self.version else { throw .unsupportedVersion }
        countryCount = u32(12)
        placeCount = u32(16)
        stringsOffset = u32(20)
        guard stringsOffset == Self.headerSize + Self.recordSize * (countryCount + placeCount), stringsOffset <= bytes.count
        else { throw .truncated }
        self.bytes = bytes
    }

    /// No labels at all (for tests that draw only outlines).
    public static let none: MapLabels = {
        var header = Array("OTMLABEL".utf8)
        for value: UInt32 in [UInt32(version), 0, 0, UInt32(headerSize)] { withUnsafeBytes(of: value.littleEndian) { header += $0 } }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: header.count, alignment: 8)
        storage.copyBytes(from: header)
        return try! MapLabels(bytes: UnsafeRawBufferPointer(storage))
    }()

    /// Record `index`: countries are 0..<countryCount, places follow.
    func entry(_ index: Int) -> Entry {
        let base = Self.headerSize + Self.recordSize * index
        func u16(_ offset: Int) -> Int32 { Int32(bytes.loadUnaligned(fromByteOffset: base + offset, as: UInt16.self).littleEndian) }
        func u8(_ offset: Int) -> Int { Int(bytes[base + offset]) }
        return Entry(
            x: u16(0), y: u16(2), population: bytes.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self).littleEndian,
            rank: UInt8(u8(15)), country: Int(u16(16)), extent: u16(18),
            nameOffset: stringsOffset + Int(bytes.loadUnaligned(fromByteOffset: base + 8, as: UInt32.self).littleEndian),
            nameLength: u8(12), asciiLength: u8(13), thirdLength: u8(14))
    }

    /// The name as drawn: its own spelling (every character one column), or in ASCII.
    func name(_ entry: Entry, ascii: Bool) -> [UInt8] {
        if ascii, entry.asciiLength > 0 { return slice(entry.nameOffset + entry.nameLength, entry.asciiLength) }
        return slice(entry.nameOffset, entry.nameLength)
    }

    /// A country's short name ("U.S.A.", "Dem. Rep. Congo"), ASCII; empty when it has none.
    func shortName(_ entry: Entry) -> [UInt8] {
        slice(entry.nameOffset + entry.nameLength + entry.asciiLength, entry.thirdLength)
    }

    /// A place's region ("Saxony"), as shown (one column a character); empty when it has none.
    func regionName(_ entry: Entry) -> [UInt8] {
        slice(entry.nameOffset + entry.nameLength + entry.asciiLength, entry.thirdLength)
    }

    private func slice(_ offset: Int, _ length: Int) -> [UInt8] {
        guard length > 0, offset + length <= bytes.count else { return [] }
        return Array(bytes[offset..<offset + length])
    }
}
