import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapMap

@Suite("Names on the map", .ownThreads)
struct LabelTests {
    let empty: TestWorld

    init() throws { empty = try TestWorld(polygons: []) }

    /// A 64×32 world view (scale 0.8: the most prominent countries and places of 20 million or more).
    private func draw(_ names: TestLabels, pins: [StudentPin] = [], charset: MapCharset = .ascii) -> MapPicture {
        MapRenderer.render(width: 64, height: 32, request: .world, charset: charset, pins: pins.map(\.position), world: empty.world, names: names.labels)
    }

    @Test("Countries by prominence and places by population, as the scale allows")
    func whatIsNamedFollowsTheScale() throws {
        let names = try TestLabels(
            countries: [.init(name: "Atlantis", latitude: 0, longitude: -30), .init(name: "Smallia", latitude: -40, longitude: 60, rank: 5)],
            places: [
                .init(name: "Megacity", latitude: 40, longitude: 100, population: 25_000_000, country: 0),
                .init(name: "Shadowed", latitude: 40, longitude: 100, population: 24_000_000, country: 0),
                .init(name: "Smalltown", latitude: -20, longitude: -100, population: 100_000, country: 0),
            ])
        let picture = draw(names)
        let view = picture.view
        let atlantis = try #require(view.cell(latitude: 0, longitude: -30))
        let megacity = try #require(view.cell(latitude: 40, longitude: 100))
        #expect(picture.names.map(\.text).sorted() == ["Atlantis", "Megacity"])
        // Centred on their points.
        #expect(picture.names.contains { $0 == ("Atlantis", atlantis.row, atlantis.col - 4) })
        #expect(picture.names.contains { $0 == ("Megacity", megacity.row, megacity.col - 4) })

        // Zoomed in (scale 51.2): towns of 50,000 too.
        let close = MapRenderer.render(
            width: 64, height: 32, request: .center(latitude: -20, longitude: -100, zoom: 64), charset: .ascii, pins: [],
            world: empty.world, names: names.labels)
        #expect(close.names.map(\.text) == ["Smalltown"])
        #expect(close.placeName == "Smalltown, Atlantis", "the view's centre in words")

        let none = MapRenderer.render(
            width: 64, height: 32, request: .world, charset: .ascii, pins: [], labels: false, world: empty.world, names: names.labels)
        #expect(none.names.isEmpty)
        #expect(picture.placeName == "", "the whole world has no one place")
    }

    @Test("A name never covers a pin or its number, and keeps a cell away from them")
    func namesGiveWayToPins() throws {
        let names = try TestLabels(
            countries: [], places: [.init(name: "Megacity", latitude: 40, longitude: 100, population: 25_000_000)])
        // A student pinned the city itself: the pin and its number stay, the name moves right of them.
        let pins = [pin("a", 40, 100)]
        let picture = draw(names, pins: pins)
        let placed = try #require(picture.placed(pins).first)
        let row = Array(picture.rows[placed.row])
        #expect(row[placed.col] == "*" && row[placed.col + 1] == "1")
        #expect(picture.names.map(\.col) == [placed.col + 3])
        #expect(String(row[placed.col...placed.col + 10]) == "*1 Megacity")
        // Pins all around: no room anywhere, so no name.
        let crowded = draw(names, pins: (-8...8).map { pin("p\($0)", 40, 100 + Double($0) * 5.625) })
        #expect(crowded.names.isEmpty)
        for placed in crowded.placements { #expect(crowded.style(placed.cell.row, placed.cell.col) == "p") }
    }

    @Test("Names too long for their place are shortened or left out; two names never run together")
    func shortNamesAndGaps() throws {
        let names = try TestLabels(
            countries: [
                .init(name: "The Very Long Republic of Somewhere", latitude: 0, longitude: 150, short: "V.L.R."),
                .init(name: "Westland", latitude: 10, longitude: 0), .init(name: "Eastland", latitude: 10, longitude: 20),
            ], places: [])
        let picture = draw(names)
        // Centred at column 58 of 64, the long name would run off the edge: its short form is drawn.
        #expect(picture.names.map(\.text).contains("V.L.R."))
        // Westland and Eastland (8 letters each, 3.5 cells apart): only the more prominent fits.
        #expect(picture.names.map(\.text).filter { $0.hasSuffix("land") } == ["Westland"])
    }

    @Test("The embedded names: countries on the world, cities where zoomed, ASCII spellings in ASCII")
    func theEmbeddedNames() throws {
        let world = MapRenderer.render(width: 120, height: 40, request: .world, charset: .braille, pins: [])
        let worldNames = Set(world.names.map(\.text))
        #expect(worldNames.isSuperset(of: ["Russia", "China", "Brazil", "Australia"]), "\(worldNames.sorted())")
        for name in world.names {
            #expect(name.text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x300 }, "\(name.text)")
        }

        let germany = MapRenderer.render(
            width: 100, height: 30, request: .near(latitude: 52.52, longitude: 13.40, radiusKm: 300), charset: .braille, pins: [])
        let berlin = try #require(germany.names.first { $0.text == "Berlin" }, "\(germany.names.map(\.text))")
        // Centred on the gazetteer's point of Berlin.
        let cell = try #require(germany.view.cell(latitude: 52.5244, longitude: 13.4105))
        #expect(berlin.row == cell.row && (berlin.col...berlin.col + 5).contains(cell.col), "\(berlin) at \(cell)")
        #expect(germany.placeName == "Berlin, Germany", "the region Berlin is a repeat")

        let brazil = MapRenderer.render(
            width: 100, height: 30, request: .near(latitude: -23.55, longitude: -46.63, radiusKm: 300), charset: .ascii, pins: [])
        #expect(brazil.names.contains { $0.text == "Sao Paulo" }, "\(brazil.names.map(\.text))")
        #expect(brazil.rows.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } })
        let accented = MapRenderer.render(
            width: 100, height: 30, request: .near(latitude: -23.55, longitude: -46.63, radiusKm: 300), charset: .braille, pins: [])
        #expect(accented.names.contains { $0.text == "São Paulo" })
    }

    /// At any width, a country is named only where it is drawn large enough to carry its name: no
    /// "Saint Pierre and Miquelon" on a dot of land (it came before countries fifty times its size,
    /// being of the same rank), and Australia by its name, never Natural Earth's "Auz.".
    @Test("Tiny territories are not named on the world; Australia is", arguments: [120, 160, 200, 240, 300, 400])
    func countriesAreNamedBySizeOnTheWorld(width: Int) throws {
        let labels = MapLabels.embedded
        for charset in [MapCharset.braille, .ascii] {
            let picture = MapRenderer.render(width: width, height: width / 4, request: .world, charset: charset, pins: [])
            let names = Set(picture.names.map(\.text))
            for tiny in ["Saint Pierre and Miquelon", "St. Pierre and Miquelon", "South Georgia and the South Sandwich Islands",
                         "S. Geo. and S. Sandw. Is.", "Pitcairn", "Niue", "Cook Islands", "Auz."] {
                #expect(!names.contains(tiny), "\(width) \(charset): \(tiny)")
            }
            #expect(names.contains("Australia"), "\(width) \(charset): \(names.sorted())")
            // Every country named is drawn at least a cell across (a city of the same name, Singapore's
            // or Kuwait's, is named as a place).
            let places = Set((labels.countryCount..<labels.countryCount + labels.placeCount).map {
                String(decoding: labels.name(labels.entry($0), ascii: charset == .ascii), as: UTF8.self)
            })
            for index in 0..<labels.countryCount {
                let entry = labels.entry(index)
                let spelled = [labels.name(entry, ascii: charset == .ascii), labels.shortName(entry)].map { String(decoding: $0, as: UTF8.self) }
                guard spelled.contains(where: { names.contains($0) && !places.contains($0) }) else { continue }
                #expect(LabelLayout.dots(entry.extent, picture.view) >= LabelLayout.minimumCountryDots, "\(spelled[0]) at \(width)")
            }
        }
        // The whole world, however wide, is no one place ("Algiers, Algeria" was its centre's).
        #expect(MapRenderer.render(width: width, height: width / 4, request: .world, charset: .braille, pins: []).placeName == "")
    }

    /// A city's districts, which GeoNames lists as places of their own, are not named as places, and
    /// the city is: a district named after it and more populous ("East Pensacola Heights", 54,104
    /// beside Pensacola's 53,724) took the city off the map with itself.
    @Test func citiesAreNamedTheirDistrictsAreNot() {
        let labels = MapLabels.embedded
        let places = Set((labels.countryCount..<labels.countryCount + labels.placeCount).map {
            String(decoding: labels.name(labels.entry($0), ascii: true), as: UTF8.self)
        })
        for city in ["Memphis", "Pensacola", "Bucharest", "New York City"] { #expect(places.contains(city), "\(city)") }
        for district in ["New South Memphis", "East Pensacola Heights", "Sector 3", "Brooklyn"] {
            #expect(!places.contains(district), "\(district)")
        }
    }

    /// A country's short name, drawn where its name does not fit, says the same country to someone who
    /// knows only the name: each of its words is an initial ("U.S.A."), "St." for Saint, the first
    /// letters of a word of the name ("Kyrg.", "Palestine" for Palestinian Territory), or four letters
    /// or more of one in order ("Grlnd."); never Natural Earth's ISO-like codes ("Kgz.", "Ury.", "Bwa."
    /// read as nothing at 300 columns). And it is shorter than the name, or it would never be drawn.
    @Test func shortNamesReadAsTheirCountry() throws {
        let labels = MapLabels.embedded
        func words(_ text: String) -> [Substring] { text.lowercased().split { !$0.isLetter } }
        func isInOrder(_ letters: Substring, in word: Substring) -> Bool {
            var rest = word[...]
            for letter in letters {
                guard let found = rest.firstIndex(of: letter) else { return false }
                rest = rest[rest.index(after: found)...]
            }
            return true
        }
        var checked = 0
        for index in 0..<labels.countryCount {
            let entry = labels.entry(index)
            let name = String(decoding: labels.name(entry, ascii: true), as: UTF8.self)
            let short = String(decoding: labels.shortName(entry), as: UTF8.self)
            guard !short.isEmpty else { continue }
            checked += 1
            #expect(short.count < name.count, "\(name): \(short)")
            let nameWords = words(name)
            for word in words(short) {
                let reads = word.count == 1 || word == "st"
                    || nameWords.contains { $0.hasPrefix(word.prefix(5)) && $0.first == word.first }
                    || (word.count >= 4 && nameWords.contains { $0.first == word.first && isInOrder(word, in: $0) })
                #expect(reads, "\(name)'s short name \(short): '\(word)' is no abbreviation of it")
            }
        }
        #expect(checked > 100, "the embedded names have \(checked) short names")
    }

    /// The browser's copy of the names carries each country's extent and the size rule, so a page can
    /// name what the terminal names.
    @Test func theBrowsersNamesCarryTheSizeRule() throws {
        let labels = MapLabels.embedded
        let json = try #require(try JSONSerialization.jsonObject(with: Data(labels.webJSON().utf8)) as? [String: Any])
        let rule = try #require(json["rule"] as? [String: Any])
        #expect(rule["countryPixels"] as? Double == 8)
        #expect(rule["largeCountryPixels"] as? Double == 48)
        let countries = try #require(json["countries"] as? [[Any]])
        #expect(countries.count == labels.countryCount)
        for (index, country) in countries.enumerated() {
            #expect(country.count == 6)
            #expect(country[5] as? Int == Int(labels.entry(index).extent), "\(country)")
        }
        let saintPierre = try #require(countries.first { $0[3] as? String == "Saint Pierre and Miquelon" })
        #expect((saintPierre[5] as? Int ?? 0) < 100)
    }

    /// A pin on Australia's point: its name moves a row, rather than shrink to an abbreviation.
    @Test func aLargeCountrysNameMovesAroundAPinBeforeItIsShortened() throws {
        let view = MapRenderer.render(width: 200, height: 50, request: .world, charset: .braille, pins: []).view
        let labels = MapLabels.embedded
        let australia = try #require((0..<labels.countryCount).map(labels.entry).first { String(decoding: labels.name($0, ascii: false), as: UTF8.self) == "Australia" })
        let (row, col) = try #require(LabelLayout.cell(australia, view))
        // Two pins in the row of its point, under the name's first and last letters.
        let latitude = Mercator.latitude(y: view.top + (Double(row) + 0.5) * 4 / view.dotsPerWorld)
        let pins = [-4, 4].map { offset in
            pin("p\(offset)", latitude, Mercator.longitude(x: view.left + (Double(col + offset) + 0.5) * 2 / view.dotsPerWorld))
        }
        let picture = MapRenderer.render(width: 200, height: 50, request: .world, charset: .braille, pins: pins.map(\.position))
        let named = try #require(picture.names.first { $0.text == "Australia" }, "\(picture.names.map(\.text))")
        #expect(abs(named.row - row) == 1, "a row away from its point: \(named) for \(row)")
        #expect(!picture.names.contains { $0.text == "Austl." })
    }

    @Test("Zoom stops where the outlines have no finer detail, the same detail at any width")
    func zoomIsCappedAtTheDatasDetail() {
        #expect(MapView.maximumZoom(width: 80) == 204.8)
        #expect(MapView.maximumZoom(width: 200) == 81.92)
        let view = MapViewRequest.center(latitude: 52.5, longitude: 13.4, zoom: 4096).resolve(width: 80, height: 24, pins: [])
        #expect(view.zoom == 204.8)
        #expect(view.zoom >= MapView.maximumZoom(width: view.width))
        // The view there still has outlines to draw: the shores of Berlin's lakes and rivers are
        // beyond the data, but a coast is not.
        let coast = MapRenderer.render(
            width: 80, height: 24, request: .center(latitude: 54.32, longitude: 10.14, zoom: 4096), charset: .braille, pins: [])
        #expect(coast.styles.joined().contains("b"), "Kiel's fjord at the closest zoom")
        #expect(coast.styles.joined().contains("l") && coast.styles.joined().contains(" "))
    }
}

@Suite("Oceans in the gazetteer", .ownThreads)
struct OceanPointTests {
    /// The gazetteer's hand-made ocean and sea points (scripts/build-gazetteer.py) lie in open water on
    /// the map the daemon draws: a typo in the table would put "Baltic Sea" on land.
    @Test func everyOceanPointIsWater() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Sources/CGazetteer/gazetteer.tsv"), encoding: .utf8)
        let oceans = text.split(separator: "\n").filter { $0.hasPrefix("A\tocean\t") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(oceans.count >= 20)
        for fields in oceans {
            let (name, latitude, longitude) = (String(fields[2]), Double(fields[3])!, Double(fields[4])!)
            let picture = MapRenderer.render(
                width: 40, height: 20, request: .center(latitude: latitude, longitude: longitude, zoom: 32), charset: .braille, pins: [],
                labels: false)
            #expect(picture.style(latitude: latitude, longitude: longitude) == " ", "\(name) at \(latitude), \(longitude)")
        }
    }
}
