import OnTheMapModels
@testable import OnTheMapMap

/// A world map in the embedded format, written here from quantised outlines, so tests know exactly
/// where the land is. One level of detail.
final class TestWorld {
    let storage: UnsafeMutableRawBufferPointer
    let world: WorldData

    init(polygons: [[(Int, Int)]], lines: [[(Int, Int)]] = []) throws {
        var data: [UInt8] = []
        func table(_ features: [[(Int, Int)]], dataStart: Int) -> [UInt8] {
            var table: [UInt8] = []
            for points in features {
                append32(UInt32(dataStart + data.count), to: &table)
                append32(UInt32(points.count), to: &table)
                for value in [points.map(\.0).min()!, points.map(\.1).min()!, points.map(\.0).max()!, points.map(\.1).max()!] {
                    table.append(UInt8(value & 0xFF))
                    table.append(UInt8(value >> 8))
                }
                var previous = (0, 0)
                for point in points {
                    varint(point.0 - previous.0, to: &data)
                    varint(point.1 - previous.1, to: &data)
                    previous = point
                }
            }
            return table
        }
        let headerSize = 16 + 32
        let dataStart = headerSize + 16 * (polygons.count + lines.count)
        let polygonTable = table(polygons, dataStart: dataStart)
        let lineTable = table(lines, dataStart: dataStart)
        var bytes = Array("OTMWORLD".utf8)
        append32(1, to: &bytes)
        append32(1, to: &bytes)
        for field in [0, polygons.count, headerSize, lines.count, headerSize + polygonTable.count, 0, 0, 0] {
            append32(UInt32(field), to: &bytes)
        }
        bytes += polygonTable + lineTable + data
        storage = .allocate(byteCount: bytes.count, alignment: 8)
        storage.copyBytes(from: bytes)
        world = try WorldData(bytes: UnsafeRawBufferPointer(storage))
    }

    deinit { storage.deallocate() }
}

private func append32(_ value: UInt32, to bytes: inout [UInt8]) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(value >> UInt32(shift) & 0xFF)) }
}

private func varint(_ value: Int, to bytes: inout [UInt8]) {
    var zigzag = UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
    while zigzag >= 0x80 {
        bytes.append(UInt8(zigzag & 0x7F) | 0x80)
        zigzag >>= 7
    }
    bytes.append(UInt8(zigzag))
}

/// A pin at a coordinate.
func pin(_ id: String, _ latitude: Double, _ longitude: Double, mine: Bool = false) -> StudentPin {
    StudentPin(
        student: StudentLocation(
            objectId: id, uniqueKey: id, firstName: "First \(id)", lastName: "Last", mapString: "Place \(id)",
            mediaURL: "https://\(id).example", latitude: latitude, longitude: longitude, createdAt: nil, updatedAt: nil),
        mine: mine)
}

extension StudentPin {
    /// Where the renderer draws it.
    var position: MapPoint { MapPoint(latitude: student.latitude, longitude: student.longitude, mine: mine) }
}

/// A pin in view, as a test looks at it: its number, its cell, and the student.
struct Placed {
    var n: Int
    var row: Int
    var col: Int
    var pin: StudentLocation
}

extension MapPicture {
    /// The pins in view, with the pins the picture was drawn from (`pins`, as given to the renderer).
    func placed(_ pins: [StudentPin]) -> [Placed] {
        placements.map { Placed(n: $0.cell.n, row: $0.cell.row, col: $0.cell.col, pin: pins[$0.index].student) }
    }

    /// The style code of a cell.
    func style(_ row: Int, _ col: Int) -> Character {
        Array(styles[row])[col]
    }

    /// The style of the cell a coordinate falls in.
    func style(latitude: Double, longitude: Double) -> Character? {
        view.cell(latitude: latitude, longitude: longitude).map { style($0.row, $0.col) }
    }
}
