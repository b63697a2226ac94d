import CGazetteer
import Glibc
import OnTheMapFolding

/// The embedded GeoNames gazetteer, indexed for lookups by folded name.
///
/// Loading reads the text once (~10 MB, built by scripts/build-gazetteer.py and embedded by the
/// CGazetteer target) into compact arrays: 24 bytes per place, 8 per name. Names for display stay in
/// the embedded text, which the kernel pages in from the executable as results read them.
struct Gazetteer: @unchecked Sendable {
    // @unchecked: `text` points at the executable's read-only data, which nothing ever writes.
    let text: UnsafeBufferPointer<UInt8>
    let folding = PlaceFolding.standard
    private(set) var countries: [GazetteerCountry] = []
    private(set) var regions: [GazetteerRegion] = []
    private(set) var places: [GazetteerPlace] = []
    private(set) var areas: [GazetteerArea] = []
    private(set) var names = NameIndex()
    private(set) var fuzzy = FuzzyIndex()

    /// Places at least this big are also found through misspellings.
    static let fuzzyMinimumPopulation: UInt32 = 15_000

    /// The gazetteer built into this executable, indexed now (`OfflineGeocoder` keeps it).
    static func embedded() -> Gazetteer {
        var count = 0
        let start = onthemap_gazetteer_bytes(&count)!
        let gazetteer = Gazetteer(text: UnsafeBufferPointer(start: start, count: count))
        releaseResidentPages(of: gazetteer.text)
        return gazetteer
    }

    init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
        var loader = Loader()
        var lineStart = 0
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != 0x0A { lineEnd += 1 }
            if lineEnd > lineStart, text[lineStart] != UInt8(ascii: "#") {
                load(line: lineStart..<lineEnd, loader: &loader)
            }
            lineStart = lineEnd + 1
        }
        names.finish()
        fuzzy.finish()
    }

    /// The display name of a place.
    func name(of place: GazetteerPlace) -> String {
        string(place.name)
    }

    private func string(_ range: TextRange) -> String {
        String(
            decoding: UnsafeBufferPointer(rebasing: text[Int(range.offset)..<Int(range.offset) + Int(range.length)]),
            as: UTF8.self)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    // MARK: Loading

    private struct Loader {
        var countryByCode: [UInt16: UInt16] = [:]
        var regionByCode: [UInt64: UInt16] = [:]
        var scratch: [UInt8] = []
    }

    private static func countryKey(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
        bytes.count == 2 ? UInt16(bytes[0]) << 8 | UInt16(bytes[1]) : 0
    }

    private static func regionKey(country: UnsafeBufferPointer<UInt8>, code: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = NameIndex.Hasher()
        hasher.combine(word: country)
        hasher.combine(word: code)
        return hasher.value
    }

    private mutating func load(line: Range<Int>, loader: inout Loader) {
        var fields: [Range<Int>] = []
        var fieldStart = line.lowerBound
        for index in line where text[index] == 0x09 {
            fields.append(fieldStart..<index)
            fieldStart = index + 1
        }
        fields.append(fieldStart..<line.upperBound)
        func bytes(_ field: Int) -> UnsafeBufferPointer<UInt8> {
            field < fields.count
                ? UnsafeBufferPointer(rebasing: text[fields[field]]) : UnsafeBufferPointer(start: nil, count: 0)
        }
        func number(_ field: Int) -> Double { Double(string(fields[field])) ?? 0 }

        switch text[line.lowerBound] {
        case UInt8(ascii: "C") where fields.count >= 8:
            let ref = EntityRef(kind: .country, index: countries.count)
            loader.countryByCode[Self.countryKey(bytes(1))] = UInt16(countries.count)
            countries.append(
                GazetteerCountry(
                    code: string(fields[1]), name: string(fields[3]), population: Int(number(4)),
                    latitude: Float(number(5)), longitude: Float(number(6))))
            addName(bytes(3), ref, loader: &loader, fuzzy: true, isAlias: false)
            addName(bytes(1), ref, loader: &loader, fuzzy: false, isAlias: false)
            addAliases(bytes(7), ref, loader: &loader, fuzzy: true)
        case UInt8(ascii: "R") where fields.count >= 8:
            let ref = EntityRef(kind: .region, index: regions.count)
            loader.regionByCode[Self.regionKey(country: bytes(1), code: bytes(2))] = UInt16(regions.count)
            regions.append(
                GazetteerRegion(
                    name: string(fields[3]), country: loader.countryByCode[Self.countryKey(bytes(1))] ?? 0,
                    population: Int(number(4)), latitude: Float(number(5)), longitude: Float(number(6))))
            addName(bytes(3), ref, loader: &loader, fuzzy: true, isAlias: false)
            addAliases(bytes(7), ref, loader: &loader, fuzzy: true)
        case UInt8(ascii: "A") where fields.count >= 9:
            // After the countries, whose codes a continent lists.
            let ref = EntityRef(kind: .area, index: areas.count)
            let members = string(fields[7]).split(separator: ",").compactMap { code -> UInt16? in
                let letters = Array(code.utf8)
                guard letters.count == 2 else { return nil }
                return loader.countryByCode[UInt16(letters[0]) << 8 | UInt16(letters[1])]
            }
            areas.append(
                GazetteerArea(
                    name: string(fields[2]), kind: string(fields[1]), latitude: Float(number(3)), longitude: Float(number(4)),
                    extentKm: number(5), population: Int(number(6)), countries: Set(members)))
            addName(bytes(2), ref, loader: &loader, fuzzy: true, isAlias: false)
            addAliases(bytes(8), ref, loader: &loader, fuzzy: true)
        case UInt8(ascii: "P") where fields.count >= 8:
            let ref = EntityRef(kind: .place, index: places.count)
            let population = UInt32(clamping: Int(number(6)))
            places.append(
                GazetteerPlace(
                    name: TextRange(offset: UInt32(fields[1].lowerBound), length: UInt16(fields[1].count)),
                    country: loader.countryByCode[Self.countryKey(bytes(2))] ?? 0,
                    region: loader.regionByCode[Self.regionKey(country: bytes(2), code: bytes(3))]
                        ?? GazetteerPlace.noRegion,
                    alternateNames: UInt8(clamping: bytes(7).isEmpty ? 0 : bytes(7).count(where: { $0 == UInt8(ascii: "|") }) + 1),
                    latitude: Float(number(4)), longitude: Float(number(5)), population: population))
            let isLarge = population >= Self.fuzzyMinimumPopulation
            addName(bytes(1), ref, loader: &loader, fuzzy: isLarge, isAlias: false)
            addAliases(bytes(7), ref, loader: &loader, fuzzy: isLarge)
        default:
            break
        }
    }

    private mutating func addAliases(
        _ list: UnsafeBufferPointer<UInt8>, _ ref: EntityRef, loader: inout Loader, fuzzy: Bool
    ) {
        var start = 0
        for index in 0...list.count where index == list.count || list[index] == UInt8(ascii: "|") {
            if index > start {
                addName(UnsafeBufferPointer(rebasing: list[start..<index]), ref, loader: &loader, fuzzy: fuzzy, isAlias: true)
            }
            start = index + 1
        }
    }

    private mutating func addName(
        _ name: UnsafeBufferPointer<UInt8>, _ ref: EntityRef, loader: inout Loader, fuzzy: Bool, isAlias: Bool
    ) {
        loader.scratch.removeAll(keepingCapacity: true)
        folding.fold(name, into: &loader.scratch)
        guard !loader.scratch.isEmpty else { return }
        names.add(hash: NameIndex.Hasher.hash(loader.scratch), ref, isAlias: isAlias)
        if fuzzy { self.fuzzy.add(loader.scratch, ref) }
    }

    /// Hands the embedded text's pages back to the kernel once indexed: they are clean pages of the
    /// executable, so a later read of a name simply faults that page in again. Saves ~10 MB of RSS.
    private static func releaseResidentPages(of text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + text.count) / page * page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_DONTNEED)
    }
}
