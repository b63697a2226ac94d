import OnTheMapTestSupport
import Testing

@testable import OnTheMapMap

/// The world drawn in pieces for a browser: the same rings and lines as the whole, each once, and a
/// ring inside another (a lake, an island in it) in the same path, where an even-odd fill makes it
/// a hole.
@Suite("The world in pieces", .ownThreads)
struct WorldPiecesTests {
    /// A path's subpaths, each from its `M` (absolute) to the next: a ring or line, as text.
    static func subpaths(_ path: String) -> [Substring] {
        path.split(separator: "M").map { $0 }
    }

    /// A ring's points, read back from its path text (`x y l dx dy dx dy … z`).
    static func points(_ ring: Substring) -> [(x: Int, y: Int)] {
        let numbers = ring.split(whereSeparator: { " lz".contains($0) }).compactMap { Int($0) }
        var points = [(x: numbers[0], y: numbers[1])]
        for index in stride(from: 2, to: numbers.count - 1, by: 2) {
            points.append((points[points.count - 1].x + numbers[index], points[points.count - 1].y + numbers[index + 1]))
        }
        return points
    }

    /// Whether `point` is inside `ring`, by the parity of the edges a ray to the west crosses.
    static func inside(_ point: (x: Int, y: Int), _ ring: [(x: Int, y: Int)]) -> Bool {
        var crossings = 0
        for (a, b) in zip(ring, ring.dropFirst() + [ring[0]]) where (a.y > point.y) != (b.y > point.y) {
            let x = Double(a.x) + Double(point.y - a.y) * Double(b.x - a.x) / Double(b.y - a.y)
            if x < Double(point.x) { crossings += 1 }
        }
        return crossings % 2 == 1
    }

    @Test func everyRingAndLineIsDrawnOnceInPiecesOfNearbyOnes() {
        let land = WorldPaths.landPieces()
        let borders = WorldPaths.borderPieces()
        #expect(land.count > 8 && borders.count > 8, "\(land.count) pieces of land, \(borders.count) of borders")
        #expect(land.flatMap(Self.subpaths).sorted() == Self.subpaths(WorldPaths.land()).sorted())
        #expect(borders.flatMap(Self.subpaths).sorted() == Self.subpaths(WorldPaths.borders()).sorted())
    }

    @Test func aRingInsideAnotherIsInItsPiece() {
        let pieces = WorldPaths.landPieces().map { Self.subpaths($0).map(Self.points) }
        let rings = pieces.enumerated().flatMap { piece, rings in rings.map { (piece: piece, points: $0) } }
        func bounds(_ points: [(x: Int, y: Int)]) -> (Int, Int, Int, Int) {
            (points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!)
        }
        let boxes = rings.map { bounds($0.points) }
        var nested = 0
        for (index, ring) in rings.enumerated() {
            for (other, outer) in rings.enumerated() where other != index {
                let (a, b) = (boxes[index], boxes[other])
                guard b.0 <= a.0 && b.1 <= a.1 && b.2 >= a.2 && b.3 >= a.3, Self.inside(ring.points[0], outer.points) else { continue }
                nested += 1
                #expect(ring.piece == outer.piece, "a ring at \(ring.points[0]) is drawn apart from the ring around it")
            }
        }
        #expect(nested > 0, "the embedded world has lakes with islands (the Caspian's)")
    }
}
