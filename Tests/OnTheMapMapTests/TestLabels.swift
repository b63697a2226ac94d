import OnTheMapModels
@testable import OnTheMapMap

/// Place names in the embedded format, written here, so tests know exactly what may be named where.
final class TestLabels {
    let storage: UnsafeMutableRawBufferPointer
    let labels: MapLabels

    /// A country or a place: a name at a coordinate; `country` is the index of a place's country.
    struct Name {
        var name: String
        var latitude: Double
        var longitude: Double
        var population: UInt32 = 1_000_000
        var rank: UInt8 = 2
        var country: Int? = nil
        var short: String = ""
        /// How large a country is drawn (quanta; 6,000 is the size of the United States).
        var extent: UInt16 = 6_000
    }

    /// Countries first (in prominence order), then places (most populous first), as the script writes them.
    init(countries: [Name], places: [Name]) throws {
        var records: [UInt8] = []
        var strings: [UInt8] = []
        for (entry, isCountry) in countries.map({ ($0, true) }) + places.map({ ($0, false) }) {
            let x = UInt16((Mercator.x(longitude: entry.longitude) * 65535).rounded())
            let y = UInt16((Mercator.y(latitude: entry.latitude) * 65535).rounded())
            let name = Array(entry.name.utf8)
            let short = Array(entry.short.utf8)
            append(x, to: &records)
            append(y, to: &records)
            append(entry.population, to: &records)
            append(UInt32(strings.count), to: &records)
            records += [UInt8(name.count), 0, UInt8(short.count), isCountry ? entry.rank : 0]
            append(UInt16(entry.country ?? 0xFFFF), to: &records)
            append(isCountry ? entry.extent : 0, to: &records)
            strings += name + short
        }
        var bytes = Array("OTMLABEL".utf8)
        for value: UInt32 in [UInt32(MapLabels.version), UInt32(countries.count), UInt32(places.count), UInt32(24 + records.count)] {
            append(value, to: &bytes)
        }
        bytes += records + strings
        storage = .allocate(byteCount: bytes.count, alignment: 8)
        storage.copyBytes(from: bytes)
        labels = try MapLabels(bytes: UnsafeRawBufferPointer(storage))
    }

    deinit { storage.deallocate() }
}

private func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
}

extension MapPicture {
    /// Every name drawn: each run of `n` cells, with its row and first column.
    var names: [(text: String, row: Int, col: Int)] {
        var found: [(String, Int, Int)] = []
        for (row, (text, style)) in zip(rows, styles).enumerated() {
            let characters = Array(text)
            let codes = Array(style)
            var col = 0
            while col < codes.count {
                guard codes[col] == "n" else {
                    col += 1
                    continue
                }
                var end = col
                while end < codes.count, codes[end] == "n" { end += 1 }
                found.append((String(characters[col..<end]), row, col))
                col = end
            }
        }
        return found
    }
}
