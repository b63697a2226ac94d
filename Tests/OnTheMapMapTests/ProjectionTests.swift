import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapMap

@Suite("Web Mercator and views", .ownThreads)
struct ProjectionTests {
    @Test func mercatorKnownValues() {
        #expect(Mercator.x(longitude: -180) == 0)
        #expect(Mercator.x(longitude: 0) == 0.5)
        #expect(abs(Mercator.y(latitude: 0) - 0.5) < 1e-12)
        #expect(abs(Mercator.y(latitude: Mercator.maxLatitude)) < 1e-9)
        #expect(abs(Mercator.y(latitude: 90) - Mercator.y(latitude: 89)) < 1e-12, "clipped at ±85.05")
        #expect(abs(Mercator.latitude(y: Mercator.y(latitude: 51.5)) - 51.5) < 1e-9)
    }

    @Test func aKnownCoordinateLandsInItsCell() {
        // 64×32 cells = 128×128 dots: the whole square world, one dot per 1/128 of it.
        let view = MapViewRequest.world.resolve(width: 64, height: 32, pins: [])
        #expect(view.zoom == 1)
        #expect(view.centerY == 0.5)
        // North of the equator is the row above the middle.
        #expect(view.cell(latitude: 0.1, longitude: 0.1)! == (15, 32))
        #expect(view.cell(latitude: -0.1, longitude: -0.1)! == (16, 31))
        #expect(view.cell(latitude: 85, longitude: -179.9)! == (0, 0))
        #expect(view.cell(latitude: -85, longitude: 179.9)! == (31, 63))
        // London: x = 0.49965 → dot 63.96 → col 31; y = 0.33259 → dot 42.57 → row 10.
        #expect(view.cell(latitude: 51.5074, longitude: -0.1278)! == (10, 31))
    }

    @Test func worldViewKeepsTheInhabitedLatitudes() {
        let view = MapViewRequest.world.resolve(width: 80, height: 24, pins: [])
        let bounds = view.bounds
        #expect(bounds.west == -180)
        #expect(bounds.east == 180)
        #expect(bounds.north >= 80 && bounds.north <= 82)
        #expect(bounds.south < -55)
        #expect(view.cell(latitude: 60, longitude: 0) != nil)
        #expect(view.cell(latitude: -85, longitude: 0) == nil)
    }

    @Test("A world view too short for the inhabited band loses a little of each end, not the south")
    func wideWorldViewIsCentred() {
        for (width, height) in [(220, 58), (300, 80), (200, 40), (80, 22)] {
            let bounds = MapViewRequest.world.resolve(width: width, height: height, pins: []).bounds
            let middle = (Mercator.y(latitude: bounds.north) + Mercator.y(latitude: bounds.south)) / 2
            let band = (Mercator.y(latitude: 80) + Mercator.y(latitude: -56)) / 2
            #expect(abs(middle - band) < 1e-9, "\(width)×\(height): \(bounds.north)…\(bounds.south)")
        }
        // Dunedin (45.9°S) and Tromsø (69.6°N) on a 220×58 terminal.
        let wide = MapViewRequest.world.resolve(width: 220, height: 58, pins: [])
        #expect(wide.cell(latitude: -45.9, longitude: 170.5) != nil)
        #expect(wide.cell(latitude: 69.6, longitude: 18.9) != nil)
    }

    @Test func boundsRoundTrip() {
        for (latitude, longitude, zoom) in [(48.0, 11.0, 8.0), (-33.9, 151.2, 3.5), (0.0, 179.0, 4.0), (64.0, -20.0, 100.0)] {
            let view = MapViewRequest.center(latitude: latitude, longitude: longitude, zoom: zoom).resolve(
                width: 100, height: 30, pins: [])
            let bounds = view.bounds
            #expect(abs(bounds.east - bounds.west - 360 / zoom) < 1e-9)
            // A client placing a coordinate from `bounds` alone finds the same cell as the renderer.
            // (Off the centre: a point exactly on a cell's edge may round either way.)
            for (lat, lon) in [(latitude + 0.31, longitude - 0.23), (latitude + 0.013, longitude + 0.017), (latitude - 0.011, longitude + 0.41)] {
                guard let cell = view.cell(latitude: lat, longitude: lon) else { continue }
                var x = Mercator.x(longitude: lon) - Mercator.x(longitude: bounds.west)
                x -= x.rounded(.down)
                let col = Int(x / (Mercator.x(longitude: bounds.east) - Mercator.x(longitude: bounds.west)) * 100)
                let top = Mercator.y(latitude: bounds.north)
                let row = Int((Mercator.y(latitude: lat) - top) / (Mercator.y(latitude: bounds.south) - top) * 30)
                #expect(cell == (row, col), "\(lat),\(lon) at zoom \(zoom)")
            }
        }
    }

    @Test func viewsCrossingTheAntimeridian() {
        let view = MapViewRequest.center(latitude: 0, longitude: 180, zoom: 4).resolve(width: 80, height: 20, pins: [])
        #expect(view.bounds.west == 135)
        #expect(view.bounds.east == 225)
        #expect(view.cell(latitude: 0, longitude: 170)!.col == 31)
        #expect(view.cell(latitude: 0, longitude: -170)!.col == 48)
        #expect(view.cell(latitude: 0, longitude: 0) == nil)
    }

    @Test func nearFitsTheRadius() {
        let view = MapViewRequest.near(latitude: 52.52, longitude: 13.4, radiusKm: 300).resolve(width: 80, height: 24, pins: [])
        // 300 km north and south of Berlin (2.7° of latitude) and east and west are in view.
        #expect(view.cell(latitude: 52.52 + 2.6, longitude: 13.4) != nil)
        #expect(view.cell(latitude: 52.52 - 2.6, longitude: 13.4) != nil)
        #expect(view.cell(latitude: 52.52, longitude: 13.4 + 4.3) != nil)
        // … and the view is not much bigger.
        #expect(view.cell(latitude: 52.52 + 4, longitude: 13.4) == nil)
    }

    @Test func fitPinsHoldsEveryPinAndWraps() {
        let europe = [pin("a", 52.5, 13.4), pin("b", 48.85, 2.35), pin("c", 41.9, 12.5), pin("d", 59.3, 18.1)]
        let view = MapViewRequest.pins.resolve(width: 80, height: 24, pins: europe.map(\.position))
        #expect(view.zoom > 4)
        for p in europe { #expect(view.cell(latitude: p.student.latitude, longitude: p.student.longitude) != nil) }

        let pacific = [pin("a", -17.7, 178.0), pin("b", -13.8, -171.8), pin("c", -21.1, -175.2)]
        let wrapped = MapViewRequest.pins.resolve(width: 80, height: 24, pins: pacific.map(\.position))
        #expect(wrapped.zoom > 4, "the pins span 10°, across the antimeridian")
        for p in pacific { #expect(wrapped.cell(latitude: p.student.latitude, longitude: p.student.longitude) != nil) }

        let one = MapViewRequest.pins.resolve(width: 80, height: 24, pins: [pin("a", 10, 10).position])
        #expect(one.zoom == MapViewRequest.pinsMaxZoom)
        #expect(MapViewRequest.pins.resolve(width: 80, height: 24, pins: []) == MapViewRequest.world.resolve(width: 80, height: 24, pins: []))
    }

    @Test func zoomIsClamped() {
        #expect(MapView(width: 80, height: 24, latitude: 0, longitude: 0, zoom: 0.1).zoom == 1)
        #expect(MapView(width: 80, height: 24, latitude: 0, longitude: 0, zoom: 1e9).zoom == MapView.maximumZoom(width: 80))
        #expect(MapView(width: 10, height: 5, latitude: 0, longitude: 0, zoom: 1e9).zoom == 1638.4)
    }
}
