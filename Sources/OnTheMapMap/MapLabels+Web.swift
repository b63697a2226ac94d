import FoundationEssentials
import OnTheMapModels

extension MapLabels {
    /// The names for a browser's map, as JSON (docs/MAP.md, "Names in a browser"): the same names as
    /// the terminal's map and the same rule for how many show at a scale, from the same data
    /// (labels.bin), so the terminal, the exported file and the server's page name the same world.
    ///
    /// `{"rule": {"scales": [1.5, 3, …], "ranks": [3, 4, …], "populations": [20000000, …],
    /// "countryPixels": 8, "largeCountryPixels": 48},
    /// "countries": [[x, y, rank, name, short name, extent], …],
    /// "places": [[x, y, population, name], …]}`: x, y and a country's extent in map units (0…65535,
    /// as the SVGs), countries most prominent (as prominent, largest) first, places most populous
    /// first, those of at least `minimumPopulation`. A scale below `scales[i]` names countries up to
    /// `ranks[i]` and places of at least `populations[i]`; past the last, the last entries of `ranks`
    /// and `populations`. A country is named only where its extent is drawn at least `countryPixels`
    /// pixels across (the terminal's cell, at 640 pixels for an 80-column world), and may have its
    /// name a line above or below its point where it is drawn `largeCountryPixels` across (the
    /// terminal's three rows).
    public func webJSON(minimumPopulation: UInt32 = 0) -> String {
        let scales: [Double] = [1.5, 3, 6, 12, 24, 48]
        let probes = scales.map { $0 / 2 } + [scales.last! * 2]
        // A terminal draws an 80-column world 160 dots across, a browser's rule 640 pixels.
        let pixelsPerDot = 640.0 / 160
        var names = WebNames(
            rule: .init(
                scales: scales, ranks: probes.map { Int(LabelLayout.maximumCountryRank(scale: $0)) },
                populations: probes.map { Int(LabelLayout.minimumPopulation(scale: $0)) },
                countryPixels: LabelLayout.minimumCountryDots * pixelsPerDot,
                largeCountryPixels: LabelLayout.largeCountryDots * pixelsPerDot),
            countries: [], places: [])
        for index in 0..<countryCount {
            let entry = entry(index)
            names.countries.append(
                .init(
                    x: Int(entry.x), y: Int(entry.y), rank: Int(entry.rank), name: text(name(entry, ascii: false)),
                    short: text(shortName(entry)), extent: Int(entry.extent)))
        }
        for index in countryCount..<countryCount + placeCount {
            let entry = entry(index)
            guard entry.population >= minimumPopulation else { break }
            names.places.append(
                .init(x: Int(entry.x), y: Int(entry.y), population: Int(entry.population), name: text(name(entry, ascii: false))))
        }
        // Names and numbers only: encoding cannot fail.
        return String(decoding: (try? WireCoding.encode(names)) ?? [], as: UTF8.self)
    }

    private func text(_ utf8: [UInt8]) -> String {
        String(decoding: utf8, as: UTF8.self)
    }
}

/// `MapLabels.webJSON`'s shape: each name a short array, ten thousand of them read by a phone.
private struct WebNames: Encodable {
    struct Rule: Encodable {
        var scales: [Double]
        var ranks: [Int]
        var populations: [Int]
        var countryPixels: Double
        var largeCountryPixels: Double
    }

    struct Country: Encodable {
        var x, y, rank: Int
        var name, short: String
        var extent: Int

        func encode(to encoder: any Encoder) throws {
            var array = encoder.unkeyedContainer()
            try array.encode(x)
            try array.encode(y)
            try array.encode(rank)
            try array.encode(name)
            try array.encode(short)
            try array.encode(extent)
        }
    }

    struct Place: Encodable {
        var x, y, population: Int
        var name: String

        func encode(to encoder: any Encoder) throws {
            var array = encoder.unkeyedContainer()
            try array.encode(x)
            try array.encode(y)
            try array.encode(population)
            try array.encode(name)
        }
    }

    var rule: Rule
    var countries: [Country]
    var places: [Place]
}
