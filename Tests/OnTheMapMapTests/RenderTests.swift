import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapMap

@Suite("Drawing the map", .ownThreads)
struct RenderTests {
    /// A square island from 90°W to 90°E, between the quarter and three-quarter lines of the square
    /// world, drawn 64×32 (128×128 dots, 512 quanta per dot): dots 32…95 both ways, cells 16…47 across
    /// and 8…23 down.
    @Test func aSquareIslandFillsExactlyItsCells() throws {
        let island = try TestWorld(polygons: [[(16384, 16384), (49151, 16384), (49151, 49151), (16384, 49151)]])
        let picture = MapRenderer.render(width: 64, height: 32, request: .world, charset: .braille, pins: [], labels: false, world: island.world)
        for row in 0..<32 {
            for col in 0..<64 {
                let inside = (16...47).contains(col) && (8...23).contains(row)
                let edge = inside && (col == 16 || col == 47 || row == 8 || row == 23)
                let expected: Character = edge ? "b" : inside ? "l" : " "
                #expect(picture.style(row, col) == expected, "cell \(row),\(col)")
            }
        }
        // Inside, land is stippled: one dot in eight.
        #expect(Array(picture.rows[15])[30] == "\u{2802}")
        #expect(Array(picture.rows[15])[31] == "\u{2820}")
        #expect(Array(picture.rows[0])[0] == "\u{2800}")
    }

    @Test func bordersAreDrawnButNotFilled() throws {
        let world = try TestWorld(polygons: [], lines: [[(0, 32768), (65535, 32768)]])
        let picture = MapRenderer.render(width: 64, height: 32, request: .world, charset: .ascii, pins: [], labels: false, world: world.world)
        #expect(picture.styles[16] == String(repeating: "b", count: 64))
        #expect(picture.styles[15] == String(repeating: " ", count: 64))
        // In ASCII, the world draws shapes (the line is in the top half of its cells); zoomed in,
        // outlines.
        #expect(picture.rows[16] == String(repeating: "'", count: 64))
        let zoomed = MapRenderer.render(
            width: 64, height: 32, request: .center(latitude: 0, longitude: 0, zoom: 5), charset: .ascii, pins: [], labels: false,
            world: world.world)
        #expect(zoomed.rows[16] == String(repeating: "-", count: 64))
    }

    @Test func edgesAlongTheWorldsCutAreNoCoast() throws {
        // Land touching the antimeridian on both sides (as Russia and Antarctica do): filled, but no
        // outline down the edge of the world.
        let world = try TestWorld(polygons: [[(0, 16384), (8191, 16384), (8191, 49151), (0, 49151)]])
        let picture = MapRenderer.render(width: 64, height: 32, request: .world, charset: .braille, pins: [], labels: false, world: world.world)
        #expect(picture.style(12, 0) == "l")
        #expect(picture.style(12, 7) == "b")
    }

    @Test func theEmbeddedWorldHasLandAndSea() {
        // Without names, which would cover some of the land tested.
        let picture = MapRenderer.render(width: 160, height: 48, request: .world, charset: .braille, pins: [], labels: false)
        let onLand: Set<Character> = ["l", "b"]
        #expect(onLand.contains(picture.style(latitude: 51.5074, longitude: -0.1278)!), "London")
        #expect(onLand.contains(picture.style(latitude: -33.8688, longitude: 151.2093)!), "Sydney")
        #expect(picture.style(latitude: -25, longitude: 134) == "l", "inland Australia")
        #expect(picture.style(latitude: 5, longitude: -20) == "l" || picture.style(latitude: 5, longitude: -20) == " ")
        #expect(picture.style(latitude: 0, longitude: -150) == " ", "mid-Pacific")
        #expect(picture.style(latitude: -30, longitude: -20) == " ", "South Atlantic")
        #expect(picture.style(latitude: 35, longitude: -40) == " ", "North Atlantic")
        // Zoomed in, the finer levels of detail are used and still agree.
        let europe = MapRenderer.render(
            width: 120, height: 40, request: .near(latitude: 50, longitude: 10, radiusKm: 800), charset: .braille, pins: [], labels: false)
        #expect(onLand.contains(europe.style(latitude: 50.1, longitude: 8.7)!), "Frankfurt")
        #expect(europe.style(latitude: 55.5, longitude: 3) == " ", "North Sea")
    }

    @Test func everyRowIsExactlyTheWidth() {
        let pins = [pin("a", 51.5, -0.1), pin("b", 51.5, -0.1), pin("c", -33.9, 151.2, mine: true)]
        for charset in MapCharset.allCases {
            for (width, height) in [(10, 5), (80, 24), (201, 61)] {
                let picture = MapRenderer.render(width: width, height: height, request: .world, charset: charset, pins: pins.map(\.position))
                #expect(picture.rows.count == height)
                #expect(picture.styles.count == height)
                for (row, style) in zip(picture.rows, picture.styles) {
                    #expect(row.unicodeScalars.count == width)
                    #expect(style.unicodeScalars.count == width)
                    #expect(style.allSatisfy { MapStyle.allCases.map(\.character).contains($0) })
                    if charset == .ascii {
                        #expect(row.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
                    } else {
                        // Braille, ASCII, and the Latin letters of names ("Brasília"): one column each.
                        #expect(row.unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) || (0x20..<0x300).contains($0.value) })
                    }
                }
            }
        }
    }

    @Test func bothCharsetsShareTheirGeometry() {
        let braille = MapRenderer.render(width: 90, height: 30, request: .world, charset: .braille, pins: [pin("a", 10, 10).position])
        let ascii = MapRenderer.render(width: 90, height: 30, request: .world, charset: .ascii, pins: [pin("a", 10, 10).position])
        #expect(braille.styles == ascii.styles)
        #expect(braille.view == ascii.view)
        #expect(braille.placements == ascii.placements)
    }

    @Test func theWorldDataRefusesOtherBytes() {
        let garbage: [UInt8] = Array("NOTAWORLDMAP....".utf8)
        _ = garbage.withUnsafeBytes { bytes in
            #expect(throws: WorldDataError.self) { try WorldData(bytes: bytes) }
        }
        #expect(WorldData.embedded.levels.count == 4)
        #expect(WorldData.embedded.levels.map(\.tolerance) == [96, 24, 6, 0])
    }
}
