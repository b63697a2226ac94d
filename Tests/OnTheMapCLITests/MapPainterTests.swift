import Testing

@testable import OnTheMapCLI

/// How the client paints the daemon's map rows.
@Suite("Painting the map for a terminal")
struct MapPainterTests {
    @Test("Your pin in a shared cell: its count in your colour, or @ without colour")
    func yourPinInASharedCell() {
        // A cell of water, a pin, your pin alone, water, your pin with another (the daemon draws "2").
        let rows = [".*@.2"]
        let styles = ["wpmwm"]
        #expect(MapPainter.paint(rows: rows, styles: styles, colour: false) == [".*@.@"])
        let coloured = MapPainter.paint(rows: rows, styles: styles, colour: true)
        #expect(coloured == [".\u{1B}[0m\u{1B}[1;31m*\u{1B}[0m\u{1B}[1;36m@\u{1B}[0m.\u{1B}[0m\u{1B}[1;36m2\u{1B}[0m"])
        // Your pin alone followed by its legend number, in your style: the number stays digits.
        #expect(MapPainter.paint(rows: [".@12"], styles: ["wmmm"], colour: false) == [".@12"])
    }
}
