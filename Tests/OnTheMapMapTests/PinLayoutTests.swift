import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapMap

@Suite("Pins", .ownThreads)
struct PinLayoutTests {
    let empty: TestWorld

    init() throws { empty = try TestWorld(polygons: []) }

    @Test func pinsInViewAreNumberedInReadingOrder() {
        // 64×32 cells over the square world.
        let pins = [
            pin("south", -40, 0), pin("north-east", 40, 90), pin("north-west", 40, -90), pin("hidden", -89, 0),
        ]
        let picture = MapRenderer.render(
            width: 64, height: 32, request: .center(latitude: 0, longitude: 0, zoom: 1.5), charset: .ascii, pins: pins.map(\.position),
            labels: false, world: empty.world)
        let inView = picture.placed(pins)
        #expect(inView.map(\.pin.objectId) == ["north-west", "north-east", "south"])
        #expect(inView.map(\.n) == [1, 2, 3])
        for placed in inView {
            let cell = picture.view.cell(latitude: placed.pin.latitude, longitude: placed.pin.longitude)!
            #expect((placed.row, placed.col) == cell)
            #expect(picture.style(placed.row, placed.col) == "p")
            #expect(Array(picture.rows[placed.row])[placed.col] == "*")
        }
    }

    @Test func severalPinsInACellShowTheirCount() {
        let pins = [pin("a", 48.14, 11.58), pin("b", 48.15, 11.57), pin("c", 48.13, 11.56), pin("far", 0, 0)]
        let picture = MapRenderer.render(width: 64, height: 32, request: .world, charset: .braille, pins: pins.map(\.position), labels: false, world: empty.world)
        let inView = picture.placed(pins)
        let cluster = inView.filter { $0.pin.objectId != "far" }
        #expect(cluster.count == 3)
        #expect(Set(cluster.map { [$0.row, $0.col] }).count == 1, "one cell")
        #expect(cluster.map(\.pin.objectId) == ["a", "b", "c"], "in the order given")
        #expect(picture.style(cluster[0].row, cluster[0].col) == "c")
        #expect(Array(picture.rows[cluster[0].row])[cluster[0].col] == "3")

        // Ten or more: the count where it fits ("12" over the cell and the next), else "+".
        let many = (0..<12).map { pin("m\($0)", 48.14, 11.58) }
        let counted = MapRenderer.render(width: 64, height: 32, request: .world, charset: .ascii, pins: many.map(\.position), labels: false, world: empty.world)
        let cell = counted.placements[0].cell
        #expect(String(Array(counted.rows[cell.row])[cell.col...cell.col + 1]) == "12")
        #expect(counted.style(cell.row, cell.col + 1) == "c")
        let crowded = MapRenderer.render(
            width: 64, height: 32, request: .world, charset: .ascii, pins: (many + [pin("next door", 48.14, 17.3)]).map(\.position), labels: false,
            world: empty.world)
        #expect(Array(crowded.rows[cell.row])[cell.col] == "+", "the next cell holds another pin")
    }

    @Test("A student's pin is followed by its number where there is room, as the legend numbers it")
    func singlePinsShowTheirNumber() {
        let pins = [pin("alone", 10, -100), pin("left", 40, 0), pin("right", 40, 6), pin("me", -30, 60, mine: true)]
        let picture = MapRenderer.render(width: 64, height: 32, request: .world, charset: .ascii, pins: pins.map(\.position), labels: false, world: empty.world)
        let inView = picture.placed(pins)
        func text(_ id: String, _ length: Int) -> String {
            let placed = inView.first { $0.pin.objectId == id }!
            return String(Array(picture.rows[placed.row])[placed.col..<placed.col + length])
        }
        let n = { (id: String) in inView.first { $0.pin.objectId == id }!.n }
        #expect(text("alone", 2) == "*\(n("alone"))")
        #expect(text("me", 2) == "@\(n("me"))")
        // Pins in neighbouring cells (one cell apart): no room for the left one's number.
        let left = inView.first { $0.pin.objectId == "left" }!
        let right = inView.first { $0.pin.objectId == "right" }!
        #expect(right.col == left.col + 1)
        #expect(text("left", 2) == "**")
        #expect(text("right", 2) == "*\(n("right"))")
        // Numbers take their pin's style; without labels nothing else is drawn over the map.
        #expect(picture.style(right.row, right.col + 1) == "p")
        #expect(!picture.styles.joined().contains("n"))
    }

    @Test("Your own pin has its own style; alone it is @, in a shared cell the cell still counts the pins")
    func yourOwnPinStandsOut() {
        let pins = [pin("other", 48.14, 11.58), pin("me", 48.14, 11.58, mine: true), pin("alone", -30, 20, mine: true)]
        let picture = MapRenderer.render(width: 64, height: 32, request: .world, charset: .ascii, pins: pins.map(\.position), labels: false, world: empty.world)
        let inView = picture.placed(pins)
        for placed in inView {
            #expect(picture.style(placed.row, placed.col) == "m")
            #expect(Array(picture.rows[placed.row])[placed.col] == (placed.pin.latitude > 0 ? "2" : "@"))
        }
        #expect(picture.placements.filter { pins[$0.index].mine }.count == 2)
    }

    @Test func pinsAcrossTheAntimeridianAreFound() {
        let pins = [pin("fiji", -17.7, 178.4), pin("samoa", -13.8, -171.8)]
        let picture = MapRenderer.render(
            width: 80, height: 24, request: .center(latitude: -15, longitude: 180, zoom: 8), charset: .ascii, pins: pins.map(\.position),
            labels: false, world: empty.world)
        let inView = picture.placed(pins)
        #expect(inView.map(\.pin.objectId) == ["samoa", "fiji"] || inView.map(\.pin.objectId) == ["fiji", "samoa"])
        let fiji = inView.first { $0.pin.objectId == "fiji" }!
        let samoa = inView.first { $0.pin.objectId == "samoa" }!
        #expect(fiji.col < samoa.col, "Samoa is east of Fiji, past 180°")
    }

    /// Groups side by side would read as one number ("324" for groups of 3, 2 and 4), and a group's
    /// count after a pin as that pin's number ("*3"): a group with a pin beside it shows "+". With or
    /// without colour (groups share one), digits never run together.
    @Test func countsOfGroupsSideBySideDoNotRunTogether() {
        // 64 cells across the world: 5.625° a cell. Groups of 3, 2 and 4 in three cells in a row, a
        // pin and a group of 3 side by side, and a group of 5 alone.
        func group(_ id: String, _ count: Int, _ latitude: Double, _ longitude: Double) -> [StudentPin] {
            (0..<count).map { pin("\(id)\($0)", latitude, longitude) }
        }
        let pins =
            group("a", 3, 40, 101) + group("b", 2, 40, 106.6) + group("c", 4, 40, 112.2) + [pin("p", 0, 1)] + group("d", 3, 0, 6.6)
            + group("e", 5, -30, -60)
        for charset in [MapCharset.ascii, .braille] {
            let picture = MapRenderer.render(width: 64, height: 32, request: .world, charset: charset, pins: pins.map(\.position), world: empty.world)
            let placed = picture.placed(pins)
            func cell(_ id: String) -> Character {
                let found = placed.first { $0.pin.objectId == id }!
                return Array(picture.rows[found.row])[found.col]
            }
            #expect([cell("a0"), cell("b0"), cell("c0")] == ["+", "+", "+"], "\(charset)")
            #expect(cell("p") == "*" && cell("d0") == "+", "\(charset): a count after a pin would read as its number")
            #expect(cell("e0") == "5", "\(charset): a group alone shows its count")
            for row in picture.rows {
                let characters = Array(row)
                for (a, b) in zip(characters, characters.dropFirst()) where a.isNumber && b.isNumber {
                    Issue.record("\(charset): digits run together in \(row)")
                }
            }
        }
    }
}
